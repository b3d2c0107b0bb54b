//! The REST transcoder's request mapping: any method, path, query string and body either maps to
//! the route's request message or is refused with an error, never a panic.
//!
//! Input: one byte choosing the method, then `path?query`, a newline, and the body.
#![no_main]

use std::sync::OnceLock;

use http::Method;
use libfuzzer_sys::fuzz_target;
use socio::api::rest::{
    request_message,
    routes::{Resolution, RouteTable},
};

fn table() -> &'static RouteTable {
    static TABLE: OnceLock<RouteTable> = OnceLock::new();
    TABLE.get_or_init(|| RouteTable::from_pool(socio::proto::descriptor_pool(), "socio.v1").expect("routes"))
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else { return };
    let method = [Method::GET, Method::POST, Method::PUT, Method::PATCH, Method::DELETE][choice as usize % 5].clone();
    let (target, body) = match rest.iter().position(|&b| b == b'\n') {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let Ok(target) = std::str::from_utf8(target) else { return };
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target, None),
    };
    if let Resolution::Found(route, vars) = table().resolve(&method, path) {
        let _ = request_message(route, &vars, query, body);
    }
});
