//! The RPC edge: one gate in front of every gRPC service — a tower layer for native gRPC and
//! gRPC-Web, and [`Gate::unary`] for the REST transcoder, which calls the same handlers without
//! an HTTP round (`unary.rs`). For each call it
//! scopes the request's language for the handler — an `AppError` returned with `?` becomes a
//! status in that language, streamed replies included — and authenticates the caller by the
//! method's access rule (`access.rs`), putting the `Caller` into the request's extensions for the
//! handler to take ([`Call::caller`](super::call::Call::caller)). It also counts and times every
//! call, by RPC and protocol, for `/metrics`.

use std::task::{Context, Poll};
use std::{convert::Infallible, time::Instant};

use axum::body::Body;
use bytes::Bytes;
use futures::future::BoxFuture;
use tonic::metadata::MetadataMap;
use tower::{Layer, Service, ServiceExt};

use super::access::{Access, access, writes};
use super::in_language::InLanguage;
use super::unary::UnaryFn;
use crate::{
    db::rate_limit::WriteBudget,
    error::AppError,
    identity::caller::{Authenticator, Caller},
    locale::{self, Language},
    telemetry::metrics,
};

/// The protocol a call came by, for the metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Grpc,
    GrpcWeb,
    Rest,
}

impl Protocol {
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Grpc => "grpc",
            Protocol::GrpcWeb => "grpc-web",
            Protocol::Rest => "rest",
        }
    }
}

/// Marks a call that reached the gRPC routes by its protocol, before gRPC-Web is translated (the
/// REST transcoder marks its own calls).
pub async fn tag_protocol(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if request.extensions().get::<Protocol>().is_none() {
        let grpc_web = request
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/grpc-web"));
        request.extensions_mut().insert(if grpc_web { Protocol::GrpcWeb } else { Protocol::Grpc });
    }
    next.run(request).await
}

/// Who may call what: the method's access rule, the caller read from the token, and a write's
/// spend of its author's budget. The layer below applies it to every call that reaches the gRPC
/// router; [`Gate::unary`] to the REST transcoder's calls, which reach the handlers directly.
#[derive(Clone)]
pub struct Gate {
    auth: Authenticator,
    budget: WriteBudget,
}

impl Gate {
    /// The gate, given the one place tokens become callers and the people's write budgets.
    pub fn new(auth: Authenticator, budget: WriteBudget) -> Self {
        Self { auth, budget }
    }

    /// The caller of the method at `path` (None for a public call made without a token), or why
    /// the call is refused. A write spends its author's budget before the service runs.
    async fn admit(&self, path: &str, headers: &http::HeaderMap) -> Result<Option<Caller>, AppError> {
        let access = access(path);
        // Only a call that reads a token needs the headers as metadata.
        let metadata = match access {
            Access::Public => MetadataMap::new(),
            Access::Optional | Access::Caller | Access::Admin => MetadataMap::from_headers(headers.clone()),
        };
        let caller = authenticate(&self.auth, access, &metadata).await?;
        if let Some(caller) = &caller
            && writes(path)
        {
            self.budget.spend(&caller.user.id).await?;
        }
        Ok(caller)
    }

    /// One unary call that came by `protocol` without HTTP (the REST transcoder): the method's
    /// rule, the write budget, the request's language around the handler, and the metrics, as
    /// the layer gives every call through the router. `headers` are the request's, passed on to
    /// the handler as metadata (only `FORWARDED` ones), `extensions` the request's own.
    pub async fn unary(
        &self,
        path: &str,
        protocol: Protocol,
        headers: &http::HeaderMap,
        extensions: http::Extensions,
        message: Bytes,
        method: &UnaryFn,
    ) -> Result<tonic::Response<Bytes>, tonic::Status> {
        let started = Instant::now();
        let lang = request_language(headers);
        let (result, _) = locale::in_request(lang, async {
            // Localised here, in the request's language, as the handlers' errors are.
            let caller = self.admit(path, headers).await.map_err(tonic::Status::from)?;
            let mut forwarded = http::HeaderMap::with_capacity(FORWARDED.len());
            for name in FORWARDED {
                if let Some(value) = headers.get(name) {
                    forwarded.insert(name.clone(), value.clone());
                }
            }
            let metadata = MetadataMap::from_headers(forwarded);
            let mut request = tonic::Request::from_parts(metadata, extensions, message);
            if let Some(caller) = caller {
                request.extensions_mut().insert(caller);
            }
            method(request).await
        })
        .await;
        let code = result.as_ref().map_or_else(tonic::Status::code, |_| tonic::Code::Ok);
        metrics::rpc(path, protocol.as_str(), &format!("{code:?}"), started.elapsed());
        result
    }
}

/// The request headers a call made without HTTP passes on to its handler as metadata.
const FORWARDED: &[http::HeaderName] =
    &[http::header::AUTHORIZATION, http::header::ACCEPT_LANGUAGE, http::header::USER_AGENT];

/// The language `Accept-Language` asks for.
fn request_language(headers: &http::HeaderMap) -> Language {
    Language::from_accept_language(headers.get(http::header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()))
}

/// The layer: the [`Gate`] in front of every gRPC service.
#[derive(Clone)]
pub struct EdgeLayer {
    gate: Gate,
}

impl EdgeLayer {
    pub fn new(gate: Gate) -> Self {
        Self { gate }
    }
}

impl<S> Layer<S> for EdgeLayer {
    type Service = Edge<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Edge { inner, gate: self.gate.clone() }
    }
}

#[derive(Clone)]
pub struct Edge<S> {
    inner: S,
    gate: Gate,
}

impl<S> Service<http::Request<Body>> for Edge<S>
where
    S: Service<http::Request<Body>, Response = http::Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: http::Request<Body>) -> Self::Future {
        let inner = self.inner.clone();
        let gate = self.gate.clone();
        let lang = request_language(request.headers());
        let protocol = request.extensions().get::<Protocol>().copied().unwrap_or(Protocol::Grpc);
        let rpc = request.uri().path().to_owned();
        let started = Instant::now();
        Box::pin(async move {
            let (response, lang) = locale::in_request(lang, async move {
                match gate.admit(&rpc, request.headers()).await {
                    Ok(caller) => {
                        if let Some(caller) = caller {
                            request.extensions_mut().insert(caller);
                        }
                        inner.oneshot(request).await.map(|response| (response, rpc))
                    }
                    Err(err) => Ok((tonic::Status::from(err).into_http(), rpc)),
                }
            })
            .await;
            let (response, rpc) = response?;
            // Failures are trailers-only (the status in the headers); a reply's OK comes at its end.
            let code = response
                .headers()
                .get("grpc-status")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<i32>().ok())
                .map_or(tonic::Code::Ok, tonic::Code::from_i32);
            metrics::rpc(&rpc, protocol.as_str(), &format!("{code:?}"), started.elapsed());
            Ok(response.map(|body| Body::new(InLanguage::new(lang, body))))
        })
    }
}

/// The caller a method's rule asks for, or why the call is refused.
async fn authenticate(
    auth: &Authenticator,
    access: Access,
    metadata: &MetadataMap,
) -> Result<Option<Caller>, AppError> {
    match access {
        Access::Public => Ok(None),
        Access::Optional => Ok(auth.caller(metadata).await.ok()),
        Access::Caller => auth.caller(metadata).await.map(Some),
        Access::Admin => auth.admin(metadata).await.map(Some),
    }
}
