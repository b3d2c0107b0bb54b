//! The REST envelope (docs/ARCHITECTURE.md, "The external contract"): `{"success": true, "data": …, "message"?}` on success and
//! `{"success": false, "message": "<localised>", "error": "<CODE>"}` with the HTTP status of the
//! gRPC code on failure. Field violations, retry hints and structured error metadata from the
//! status details are carried along, generically.

#![deny(clippy::wildcard_enum_match_arm)]

use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde::Serialize;
use serde_json::{Map, Value as Json, json};
use tonic::Code;
use tonic_types::StatusExt;

use crate::{error::AppError, locale::Language};

/// Error reasons the spec's clients read as a top-level flag.
const TOP_LEVEL_FLAGS: &[(&str, &str)] = &[("USER_NOT_REGISTERED", "isUnregistered")];

/// A success: `data`, and the success message when the call gave one (`lang` says the error
/// should `data` fail to be written).
pub fn success<T: Serialize>(data: T, message: Option<String>, lang: Language) -> Response {
    #[derive(Serialize)]
    struct Success<T> {
        success: bool,
        data: T,
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    }
    match serde_json::to_vec(&Success { success: true, data, message }) {
        Ok(body) => json_bytes(StatusCode::OK, body),
        Err(err) => error(AppError::Internal(anyhow::anyhow!("writing a reply as JSON: {err}")), lang),
    }
}

/// The HTTP status of a gRPC code.
pub fn http_status(code: Code) -> StatusCode {
    match code {
        Code::Ok => StatusCode::OK,
        Code::InvalidArgument | Code::OutOfRange => StatusCode::BAD_REQUEST,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::FailedPrecondition | Code::Aborted => StatusCode::CONFLICT,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::Cancelled | Code::Unknown | Code::Internal | Code::DataLoss => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
    }
}

/// `Code::InvalidArgument` → `INVALID_ARGUMENT`.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

/// The envelope of an answer that did not come from a gRPC service (the dev endpoints, the
/// transcoder's own refusals): its data, or its error in `lang`.
pub fn answer(lang: Language, result: Result<Json, AppError>) -> Response {
    match result {
        Ok(data) => success(data, None, lang),
        Err(err) => error(err, lang),
    }
}

/// An error that did not come from a gRPC service, in `lang`.
pub fn error(err: AppError, lang: Language) -> Response {
    failure(&err.into_status(lang))
}

/// A failed call as the envelope.
pub fn failure(status: &tonic::Status) -> Response {
    let details = status.get_error_details();
    let mut body = Map::new();
    body.insert("success".into(), Json::Bool(false));
    body.insert("message".into(), Json::String(status.message().to_owned()));
    let mut error = code_name(status.code()).to_owned();
    if let Some(info) = details.error_info() {
        error = info.reason.clone();
        if let Some((_, flag)) = TOP_LEVEL_FLAGS.iter().find(|(reason, _)| *reason == info.reason) {
            body.insert((*flag).into(), Json::Bool(true));
        }
        if !info.metadata.is_empty() {
            let data: Map<String, Json> =
                info.metadata.iter().map(|(k, v)| (k.clone(), Json::String(v.clone()))).collect();
            body.insert("data".into(), Json::Object(data));
        }
    }
    body.insert("error".into(), Json::String(error));
    if let Some(bad_request) = details.bad_request() {
        let errors = bad_request
            .field_violations
            .iter()
            .map(|v| json!({"field": v.field, "message": v.description}))
            .collect();
        body.insert("errors".into(), Json::Array(errors));
    }
    let retry_after = details.retry_info().and_then(|r| r.retry_delay).map(|d| d.as_secs().max(1));
    if let Some(secs) = retry_after {
        body.insert("retryAfter".into(), Json::from(secs));
    }
    let mut response = json_response(http_status(status.code()), &Json::Object(body));
    if let Some(secs) = retry_after {
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

/// A failure that never reached a service (no route, wrong method).
pub fn not_routed(status: StatusCode, code: &str, message: &str) -> Response {
    json_response(status, &json!({"success": false, "message": message, "error": code}))
}

fn json_response(status: StatusCode, body: &Json) -> Response {
    json_bytes(status, body.to_string().into_bytes())
}

fn json_bytes(status: StatusCode, body: Vec<u8>) -> Response {
    let mut response = (status, body).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json; charset=utf-8"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_error_code_has_its_http_status() {
        assert_eq!(http_status(Code::InvalidArgument), StatusCode::BAD_REQUEST);
        assert_eq!(http_status(Code::Unauthenticated), StatusCode::UNAUTHORIZED);
        assert_eq!(http_status(Code::PermissionDenied), StatusCode::FORBIDDEN);
        assert_eq!(http_status(Code::NotFound), StatusCode::NOT_FOUND);
        assert_eq!(http_status(Code::FailedPrecondition), StatusCode::CONFLICT);
        assert_eq!(http_status(Code::ResourceExhausted), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(http_status(Code::Unavailable), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(http_status(Code::Unimplemented), StatusCode::NOT_IMPLEMENTED);
        assert_eq!(http_status(Code::Internal), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
