//! The RPC edge: one tower layer in front of every gRPC service, and so in front of native gRPC,
//! gRPC-Web and REST alike (REST reaches the services through the same router). For each call it
//! scopes the request's language for the handler — an `AppError` returned with `?` becomes a
//! status in that language, streamed replies included — and authenticates the caller by the
//! method's access rule (`access.rs`), putting the `Caller` into the request's extensions for the
//! handler to take ([`Call::caller`](super::call::Call::caller)). It also counts and times every
//! call, by RPC and protocol, for `/metrics`.

use std::task::{Context, Poll};
use std::{convert::Infallible, time::Instant};

use axum::body::Body;
use futures::future::BoxFuture;
use tonic::metadata::MetadataMap;
use tower::{Layer, Service, ServiceExt};

use super::access::{Access, access, writes};
use super::in_language::InLanguage;
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

/// The layer, given the one place tokens become callers and the people's write budgets.
#[derive(Clone)]
pub struct EdgeLayer {
    auth: Authenticator,
    budget: WriteBudget,
}

impl EdgeLayer {
    pub fn new(auth: Authenticator, budget: WriteBudget) -> Self {
        Self { auth, budget }
    }
}

impl<S> Layer<S> for EdgeLayer {
    type Service = Edge<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Edge { inner, auth: self.auth.clone(), budget: self.budget.clone() }
    }
}

#[derive(Clone)]
pub struct Edge<S> {
    inner: S,
    auth: Authenticator,
    budget: WriteBudget,
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
        let auth = self.auth.clone();
        let budget = writes(request.uri().path()).then(|| self.budget.clone());
        let lang = Language::from_accept_language(
            request.headers().get(http::header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()),
        );
        let access = access(request.uri().path());
        let protocol = request.extensions().get::<Protocol>().copied().unwrap_or(Protocol::Grpc);
        let rpc = request.uri().path().to_owned();
        let started = Instant::now();
        Box::pin(async move {
            let (response, lang) = locale::in_request(lang, async move {
                // Only a call that reads a token needs the headers as metadata.
                let metadata = match access {
                    Access::Public => MetadataMap::new(),
                    Access::Optional | Access::Caller | Access::Admin => {
                        MetadataMap::from_headers(request.headers().clone())
                    }
                };
                let allowed = match (authenticate(&auth, access, &metadata).await, &budget) {
                    // A write spends its author's budget before the service runs.
                    (Ok(Some(caller)), Some(budget)) => {
                        budget.spend(&caller.user.id).await.map(|()| Some(caller))
                    }
                    (other, _) => other,
                };
                match allowed {
                    Ok(caller) => {
                        if let Some(caller) = caller {
                            request.extensions_mut().insert(caller);
                        }
                        inner.oneshot(request).await
                    }
                    Err(err) => Ok(tonic::Status::from(err).into_http()),
                }
            })
            .await;
            let response = response?;
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
