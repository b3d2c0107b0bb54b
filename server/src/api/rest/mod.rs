//! The REST layer under `/api`: one generic transcoder driven by the contracts' `google.api.http`
//! annotations. It matches the path template, builds the request message from path, query and
//! JSON body, calls the very same handler as gRPC through the same gate (the method's rule, the
//! write budget, the language, the metrics: `edge::Gate::unary`), without an HTTP round through
//! the gRPC router, and wraps the answer in the spec's envelope. It knows no domain.

pub mod envelope;
pub mod openapi;
pub mod routes;

use std::sync::Arc;

use axum::{extract::Request, response::Response};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use prost::Message;
use prost_reflect::DynamicMessage;
use serde_json::{Map, Value as Json};

use self::routes::{BodyRule, Resolution, Route, RouteTable};
use super::{
    edge::{Gate, Protocol},
    unary::Unaries,
};
use crate::{
    error::{AppError, NUL, Problem},
    locale::Language,
    proto::json,
};

pub use envelope::{code_name, http_status};

/// Largest JSON body the REST layer reads.
const MAX_BODY_BYTES: usize = 1 << 20;

/// Response metadata a service sets to give the envelope a `message`.
pub const MESSAGE_METADATA: &str = "x-socio-message";

/// The transcoder: the routing table, the services' unary methods it calls and the gate in front
/// of them.
pub struct Rest {
    table: RouteTable,
    unaries: Unaries,
    gate: Gate,
}

impl Rest {
    /// The transcoder; every route must reach a method of `unaries`.
    pub fn new(table: RouteTable, unaries: Unaries, gate: Gate) -> anyhow::Result<Arc<Self>> {
        if let Some(route) = table.routes().iter().find(|r| unaries.get(&r.grpc_path).is_none()) {
            anyhow::bail!("the REST route of {} reaches no handler", route.grpc_path);
        }
        Ok(Arc::new(Self { table, unaries, gate }))
    }

    pub async fn handle(&self, request: Request) -> Response {
        let lang = Language::from_accept_language(
            request.headers().get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()),
        );
        let mut response = match self.table.resolve(request.method(), request.uri().path()) {
            Resolution::Found(route, vars) => self.call(route, vars, request, lang).await,
            Resolution::MethodNotAllowed => not_routed(StatusCode::METHOD_NOT_ALLOWED, lang),
            Resolution::NotFound => not_routed(StatusCode::NOT_FOUND, lang),
        };
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }

    async fn call(
        &self,
        route: &Route,
        vars: Vec<(String, String)>,
        request: Request,
        lang: Language,
    ) -> Response {
        let (parts, body) = request.into_parts();
        let body = if route.body == BodyRule::None {
            Bytes::new()
        } else {
            match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
                Ok(bytes) => bytes,
                Err(_) => {
                    let err = AppError::MalformedBody(format!("larger than {MAX_BODY_BYTES} bytes"));
                    return envelope::error(err, lang);
                }
            }
        };
        if !declares_json(&parts.headers, &body) {
            return not_json(lang);
        }
        let input = match request_message(route, &vars, parts.uri.query(), &body) {
            Ok(input) => input,
            Err(err) => return envelope::error(err, lang),
        };

        let Some(method) = self.unaries.get(&route.grpc_path) else {
            let err = anyhow::anyhow!("{} has a route but no handler", route.grpc_path);
            return envelope::error(AppError::Internal(err), lang);
        };
        let answer = self
            .gate
            .unary(
                &route.grpc_path,
                Protocol::Rest,
                &parts.headers,
                parts.extensions,
                Bytes::from(input.encode_to_vec()),
                method,
            )
            .await;
        let response = match answer {
            Ok(response) => response,
            Err(status) => return envelope::failure(&status),
        };
        let message = success_message(response.metadata());
        match DynamicMessage::decode(route.output.clone(), response.into_inner()) {
            Ok(output) => envelope::success(response_data(route, &output), message, lang),
            Err(err) => envelope::error(
                AppError::Internal(anyhow::anyhow!("decoding {}: {err}", route.grpc_path)),
                lang,
            ),
        }
    }
}

/// Whether a request's body may be read as JSON: it says so (`application/json`, or a `+json`
/// type), or it has neither a body nor a type. A form or plain text — what a foreign page can post
/// without asking the browser first — is refused with 415 before anything is done.
fn declares_json(headers: &HeaderMap, body: &[u8]) -> bool {
    let Some(declared) = headers.get(header::CONTENT_TYPE) else {
        return body.iter().all(u8::is_ascii_whitespace);
    };
    let Ok(declared) = declared.to_str() else { return false };
    let essence = declared.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

fn not_json(lang: Language) -> Response {
    let message = say!(lang, "api-rest-send-the-body-as-json");
    envelope::not_routed(StatusCode::UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE", &message)
}

/// The mapping itself, from a body already read: what the fuzzer drives. Any input gives a
/// message or an error, never a panic.
pub fn request_message(
    route: &Route,
    vars: &[(String, String)],
    query: Option<&str>,
    body: &[u8],
) -> Result<DynamicMessage, AppError> {
    let mut object = Map::new();
    if route.body != BodyRule::None {
        let parsed: Json = if body.iter().all(u8::is_ascii_whitespace) {
            Json::Object(Map::new())
        } else {
            serde_json::from_slice(body).map_err(|e| AppError::MalformedBody(e.to_string()))?
        };
        if deeper_than(&parsed, MAX_JSON_DEPTH) {
            return Err(AppError::invalid(
                "body",
                Problem::Format(said!("api-rest-format-json-nested-at-most-32")),
            ));
        }
        match (&route.body, parsed) {
            (BodyRule::Whole, Json::Object(fields)) => object = fields,
            (BodyRule::Whole, _) => return Err(AppError::MalformedBody("expected a JSON object".into())),
            (BodyRule::Field(field), value) => {
                object.insert(field.clone(), value);
            }
            (BodyRule::None, _) => {}
        }
    }
    if route.body != BodyRule::Whole {
        json::query_to_json(&route.input, &parse_query(query.unwrap_or_default()), &mut object)?;
    }
    json::query_to_json(&route.input, vars, &mut object)?;
    let object = Json::Object(object);
    if let Some(field) = field_with_nul(&object, "") {
        return Err(AppError::invalid(field, NUL));
    }
    json::json_to_message(&route.input, object)
}

/// How deep a body's objects and lists may nest: far more than any contract needs, and well inside
/// what the protobuf decoder behind the transcoder accepts (each JSON level of a `Struct` is two of
/// its levels, and it stops at 100).
const MAX_JSON_DEPTH: usize = 32;

/// Whether `value` nests objects and lists more than `limit` levels deep.
fn deeper_than(value: &Json, limit: usize) -> bool {
    match value {
        Json::Array(items) => limit == 0 || items.iter().any(|v| deeper_than(v, limit - 1)),
        Json::Object(fields) => limit == 0 || fields.values().any(|v| deeper_than(v, limit - 1)),
        Json::Null | Json::Bool(_) | Json::Number(_) | Json::String(_) => false,
    }
}

/// The first field (JSON path) whose text, or name, holds a NUL character: text cannot store it.
fn field_with_nul(value: &Json, path: &str) -> Option<String> {
    match value {
        Json::String(text) => text.contains('\0').then(|| path.to_owned()),
        Json::Array(items) => {
            items.iter().enumerate().find_map(|(i, item)| field_with_nul(item, &format!("{path}[{i}]")))
        }
        Json::Object(fields) => fields.iter().find_map(|(name, item)| {
            let path = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
            if name.contains('\0') { Some(path) } else { field_with_nul(item, &path) }
        }),
        Json::Null | Json::Bool(_) | Json::Number(_) => None,
    }
}

/// What a reply puts under `data`: the message, or the one field the route names.
fn response_data<'a>(route: &'a Route, output: &'a DynamicMessage) -> ResponseData<'a> {
    match &route.response_body {
        Some(field) => ResponseData::Field(json::FieldAsJson { message: output, field }),
        None => ResponseData::Message(json::AsJson(output)),
    }
}

/// A reply's `data`, written straight into the envelope.
enum ResponseData<'a> {
    Message(json::AsJson<'a>),
    Field(json::FieldAsJson<'a>),
}

impl serde::Serialize for ResponseData<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ResponseData::Message(message) => message.serialize(serializer),
            ResponseData::Field(field) => field.serialize(serializer),
        }
    }
}

fn success_message(metadata: &tonic::metadata::MetadataMap) -> Option<String> {
    let raw = metadata.get(MESSAGE_METADATA)?.to_str().ok()?;
    percent_encoding::percent_decode_str(raw).decode_utf8().ok().map(|s| s.into_owned())
}

fn parse_query(query: &str) -> Vec<(String, String)> {
    let decode = |s: &str| {
        let spaced = s.replace('+', " ");
        percent_encoding::percent_decode_str(&spaced).decode_utf8_lossy().into_owned()
    };
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(pair), String::new()),
        })
        .collect()
}

fn not_routed(status: StatusCode, lang: Language) -> Response {
    let (code, message) = if status == StatusCode::METHOD_NOT_ALLOWED {
        ("METHOD_NOT_ALLOWED", say!(lang, "api-rest-method-not-allowed-for-this"))
    } else {
        ("NOT_FOUND", say!(lang, "api-rest-api-address-not-found"))
    };
    envelope::not_routed(status, code, &message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_decode_plus_and_percent_escapes() {
        assert_eq!(
            parse_query("search=Jo%C3%A3o+Silva&page=2&flag"),
            vec![
                ("search".into(), "João Silva".into()),
                ("page".into(), "2".into()),
                ("flag".into(), String::new())
            ]
        );
    }
}
