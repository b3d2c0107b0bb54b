//! Compiles the contracts in `proto/` with protox (pure Rust, no system protoc) and generates the
//! tonic servers and clients. The encoded descriptor set is kept byte for byte: reflection and the
//! REST transcoder read the `google.api.http` options from it, which a re-encode would drop.

use std::{env, fs, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto_root = PathBuf::from("../proto");
    println!("cargo:rerun-if-changed={}", proto_root.display());
    // The migrations are embedded (`sqlx::migrate!`): a new one must rebuild the crate.
    println!("cargo:rerun-if-changed=../migrations");

    let mut files: Vec<PathBuf> = fs::read_dir(proto_root.join("socio/v1"))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "proto"))
        .collect();
    files.sort();

    let mut compiler = protox::Compiler::new([&proto_root])?;
    compiler.include_imports(true).include_source_info(true);
    compiler.open_files(&files)?;
    let bytes = compiler.encode_file_descriptor_set();
    let fds = compiler.file_descriptor_set();

    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    fs::write(out_dir.join("socio_descriptor.bin"), &bytes)?;

    // Type names let the domain map any message to and from JSON by its descriptor.
    let mut config = tonic_prost_build::Config::new();
    config.enable_type_names();
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        .generate_default_stubs(true)
        .compile_fds_with_config(fds, config)?;
    Ok(())
}
