//! Whether the tests' PostgreSQL cases run (the contracts are compiled by socio-base's build).

use std::env;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The tests' PostgreSQL cases run when TEST_DATABASE_URL is set, and are reported as ignored
    // (never as passed) when it is not.
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    println!("cargo:rerun-if-env-changed=TEST_DATABASE_URL");
    if env::var("TEST_DATABASE_URL").is_ok_and(|url| !url.is_empty()) {
        println!("cargo:rustc-cfg=postgres_tests");
    }

    Ok(())
}
