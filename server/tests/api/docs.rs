//! The docs say what the code is: every command the binary takes is named where the README and
//! ARCHITECTURE list the commands, and every service of the contracts is named in ARCHITECTURE and
//! counted in development.md.

use std::{fs, path::Path, process::Command};

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn read(relative: &str) -> String {
    fs::read_to_string(repository().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The commands as the binary's own usage line gives them: `serve`, `migrate`, `admin promote`…
fn commands() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_socio")).arg("help").output().unwrap();
    let usage = String::from_utf8(out.stdout).unwrap();
    let inside = usage.trim().trim_start_matches("usage: socio [").trim_end_matches(']');
    inside
        .split(" | ")
        .map(|c| {
            c.split_whitespace().take_while(|w| !w.starts_with(['<', '['])).collect::<Vec<_>>().join(" ")
        })
        .collect()
}

#[test]
fn every_command_of_the_binary_is_named_where_the_docs_list_the_commands() {
    let commands = commands();
    assert_eq!(commands, ["serve", "migrate", "admin promote", "reminders run", "facts"], "{commands:?}");
    let readme = read("README.md");
    let listed = readme.lines().find(|l| l.starts_with("The binary:")).expect("README lists the commands");
    let architecture = read("docs/ARCHITECTURE.md");
    let paragraph = architecture.split("**Commands.**").nth(1).and_then(|p| p.split("\n\n").next()).unwrap();
    for command in &commands {
        let named = format!("`socio {command}");
        assert!(listed.contains(&named), "README's command list lacks {named}`: {listed}");
        assert!(paragraph.contains(&named), "ARCHITECTURE's Commands lack {named}`: {paragraph}");
    }
}

#[test]
fn every_service_of_the_contracts_is_named_in_architecture_and_counted_in_development() {
    let mut services = Vec::new();
    for entry in fs::read_dir(repository().join("proto/socio/v1")).unwrap() {
        let source = fs::read_to_string(entry.unwrap().path()).unwrap();
        services.extend(
            source
                .lines()
                .filter_map(|l| l.strip_prefix("service ")?.split_whitespace().next())
                .map(str::to_owned),
        );
    }
    services.sort();
    assert_eq!(services.len(), 11, "{services:?}");
    let architecture = read("docs/ARCHITECTURE.md");
    assert!(architecture.contains("holds eleven services"), "ARCHITECTURE counts the services");
    for service in &services {
        assert!(architecture.contains(&format!("`{service}`")), "ARCHITECTURE does not name {service}");
    }
    let development = read("docs/development.md");
    assert!(development.contains("eleven services"), "development.md counts the services");
    for service in &services {
        // `BusinessPlanService` is "business plan" there.
        let words: String = service
            .trim_end_matches("Service")
            .chars()
            .flat_map(|c| if c.is_uppercase() { vec![' ', c.to_ascii_lowercase()] } else { vec![c] })
            .collect();
        let words = words.trim().replace("system prompt", "system prompts");
        assert!(development.contains(&words), "development.md does not name the {words} service");
    }
}
