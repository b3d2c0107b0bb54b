//! The layers of the crate, top to bottom, and the test that keeps imports pointing down: a module
//! may use modules of its own layer or below, never above. docs/ARCHITECTURE.md shows this list.

/// Top-level modules by layer, the top first.
pub const LAYERS: &[&[&str]] = &[
    &["app"],
    &["api"],
    &["erasure", "privacy", "administration"],
    &["consultant"],
    &["conversation"],
    &["identity", "plan", "billing", "prompts", "analytics", "newsletter", "proof", "audit"],
    &[
        "whatsapp",
        "db",
        "clock",
        "config",
        "error",
        "facts",
        "locale",
        "proto",
        "rendering",
        "telemetry",
        "layers",
        "connections",
        "words",
    ],
];

/// The rooms of the plan's domain, top first, by the name of their module under `plan`: the
/// document and the advice read everything; tracking (results, calendar, ceiling, reminders) reads
/// money and the plan itself; money (finance, taxes, pricing, checks) reads the plan itself; the plan
/// itself (its sections, store, change feed, months and amounts, and the `Plans` service in
/// `plan/mod.rs`) reads none of them.
pub const PLAN_ROOMS: &[&[&str]] = &[
    &["document", "advice"],
    &["tracking"],
    &["money"],
    &["store", "sections", "events", "labels", "month", "amounts", "price_request"],
];

/// The room of a module under `plan` (0 is the top); the plan's own items (`plan::Plans`) are the
/// plan itself.
pub fn plan_room_of(name: &str) -> usize {
    PLAN_ROOMS.iter().position(|room| room.contains(&name)).unwrap_or(PLAN_ROOMS.len() - 1)
}

/// The layer of a top-level module (0 is the top).
pub fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

#[cfg(test)]
mod circles;
#[cfg(test)]
mod doors;

#[cfg(test)]
mod tests {
    use std::{collections::BTreeSet, fs, path::Path};

    use super::*;

    /// The top-level modules a source file names through `crate::`: in `use crate::{a::…, b}`
    /// blocks (the names at the block's first level) and in paths such as `crate::clock::DAY_MS`.
    fn crate_modules(source: &str) -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        let code: String =
            source.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let mut rest = code.as_str();
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(block) = rest.strip_prefix('{') {
                // At the block's first level each item is `name::…`, `name` or `name as alias`:
                // its first identifier is the module.
                let (mut depth, mut name, mut expecting) = (1, String::new(), true);
                for c in block.chars() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                    let ident = c.is_alphanumeric() || c == '_';
                    if depth == 1 && expecting && ident {
                        name.push(c);
                    } else if !name.is_empty() {
                        found.insert(std::mem::take(&mut name));
                        expecting = false;
                    }
                    if depth == 1 && c == ',' {
                        expecting = true;
                    }
                }
            } else {
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    found.insert(name);
                }
            }
        }
        found
    }

    #[test]
    fn every_file_of_the_plan_imports_only_from_its_room_or_below() {
        let files = super::circles::read_workspace();
        let mut upward = Vec::new();
        for (file, source) in
            super::circles::production(&files).iter().filter(|(f, _)| f.starts_with("plan/"))
        {
            let module = super::circles::module_of(Path::new(file));
            let own = module.get(1).map_or(PLAN_ROOMS.len() - 1, |name| plan_room_of(name));
            for path in super::circles::references(source, &module) {
                if let [plan, name, ..] = path.as_slice()
                    && plan == "plan"
                    && plan_room_of(name) < own
                {
                    upward.push(format!("{file} uses plan::{name}"));
                }
            }
        }
        upward.sort();
        upward.dedup();
        assert!(upward.is_empty(), "the plan's rooms used from below:\n{}", upward.join("\n"));
    }

    #[test]
    fn every_room_of_the_plan_is_in_the_list() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../domains/src/plan");
        for entry in fs::read_dir(root).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().trim_end_matches(".rs").to_owned();
            if name != "mod" {
                assert!(
                    PLAN_ROOMS.iter().any(|room| room.contains(&name.as_str())),
                    "plan::{name} is in no room"
                );
            }
        }
    }

    #[test]
    fn the_import_reader_sees_blocks_and_paths() {
        let source = "use crate::{\n    clock::{self, CivilDate},\n    db::{Db, now_ms},\n    error,\n};\n// crate::api in a comment\nlet x = crate::locale::Language::PtBr;";
        let found: Vec<String> = crate_modules(source).into_iter().collect();
        assert_eq!(found, ["clock", "db", "error", "locale"]);
    }

    #[test]
    fn every_module_imports_only_from_its_layer_or_below() {
        let mut upward = Vec::new();
        for (relative, source) in super::circles::read_workspace() {
            let first = relative.split('/').next().unwrap().trim_end_matches(".rs").to_owned();
            if matches!(first.as_str(), "lib" | "main" | "layers") {
                continue;
            }
            let own = layer_of(&first).unwrap_or_else(|| panic!("{first} is in no layer: add it to LAYERS"));
            for used in crate_modules(&source) {
                let theirs =
                    layer_of(&used).unwrap_or_else(|| panic!("{used} (used by {relative:?}) is in no layer"));
                if theirs < own {
                    upward.push(format!("{relative} uses {used}"));
                }
            }
        }
        assert!(upward.is_empty(), "imports that point up a layer:\n{}", upward.join("\n"));
    }
}
