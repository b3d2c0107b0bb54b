//! The RPC edge: one tower layer in front of every gRPC service, and so in front of native gRPC,
//! gRPC-Web and REST alike (REST reaches the services through the same router). For each call it
//! scopes the request's language for the handler — an `AppError` returned with `?` becomes a
//! status in that language, streamed replies included — and authenticates the caller by the
//! method's access rule, putting the `Caller` into the request's extensions for the handler to
//! take ([`caller`]). Every method needs a logged-in caller unless this file lists it: a method
//! added later is protected without anyone remembering to. It also counts and times every call,
//! by RPC and protocol, for `/metrics`.

use std::{
    convert::Infallible,
    pin::Pin,
    task::{Context, Poll},
    time::Instant,
};

use axum::body::Body;
use futures::future::BoxFuture;
use http_body::{Frame, SizeHint};
use tonic::{Request, metadata::MetadataMap};
use tower::{Layer, Service, ServiceExt};

use crate::{
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

/// Who may call a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone; no token is read.
    Public,
    /// Anyone; the caller is known when a valid token comes with the call.
    Optional,
    /// A logged-in caller.
    Caller,
    /// A logged-in admin.
    Admin,
}

/// Methods (or, ending in `/`, whole services) anyone may call: logging in, the plans on offer,
/// the sandbox payment page, the landing page's calls, health and reflection.
pub const PUBLIC: &[&str] = &[
    "/socio.v1.AuthService/SendCode",
    "/socio.v1.AuthService/VerifyCode",
    "/socio.v1.AuthService/Refresh",
    "/socio.v1.BillingService/ListPlans",
    "/socio.v1.BillingService/GetSandboxCheckout",
    "/socio.v1.BillingService/CompleteSandboxCheckout",
    "/socio.v1.LandingService/",
    "/grpc.health.v1.Health/",
    "/grpc.reflection.v1.ServerReflection/",
    "/grpc.reflection.v1alpha.ServerReflection/",
];

/// Methods anyone may call that act for the caller when a valid token comes with them: logging
/// out (a refresh token alone ends its session) and checking out for a number.
pub const OPTIONAL: &[&str] = &["/socio.v1.AuthService/Logout", "/socio.v1.BillingService/CreateCheckout"];

/// Services only admins may call.
pub const ADMIN: &[&str] =
    &["/socio.v1.AdminService/", "/socio.v1.SystemPromptService/", "/socio.v1.HandoffService/"];

/// The access rule of a gRPC path (`/package.Service/Method`): a logged-in caller unless listed.
pub fn access(path: &str) -> Access {
    let listed = |list: &[&str]| {
        list.iter().any(|entry| if entry.ends_with('/') { path.starts_with(entry) } else { path == *entry })
    };
    if listed(PUBLIC) {
        Access::Public
    } else if listed(OPTIONAL) {
        Access::Optional
    } else if listed(ADMIN) {
        Access::Admin
    } else {
        Access::Caller
    }
}

/// The caller the edge authenticated for this request.
pub fn caller<T>(request: &Request<T>) -> Result<Caller, AppError> {
    request.extensions().get::<Caller>().cloned().ok_or(AppError::Unauthenticated)
}

/// The caller of an [`Access::Optional`] method, when a valid token came with the call.
pub fn optional_caller<T>(request: &Request<T>) -> Option<Caller> {
    request.extensions().get::<Caller>().cloned()
}

/// The layer, given the one place tokens become callers.
#[derive(Clone)]
pub struct EdgeLayer {
    auth: Authenticator,
}

impl EdgeLayer {
    pub fn new(auth: Authenticator) -> Self {
        Self { auth }
    }
}

impl<S> Layer<S> for EdgeLayer {
    type Service = Edge<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Edge { inner, auth: self.auth.clone() }
    }
}

#[derive(Clone)]
pub struct Edge<S> {
    inner: S,
    auth: Authenticator,
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
                match authenticate(&auth, access, &metadata).await {
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
            Ok(response.map(|body| Body::new(InLanguage { lang, body })))
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

/// A reply body polled in the request's language: a streamed reply produces its items (and their
/// errors) after the handler has returned.
struct InLanguage {
    lang: Language,
    body: Body,
}

impl http_body::Body for InLanguage {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let lang = self.lang;
        locale::in_request_sync(lang, || Pin::new(&mut self.body).poll_frame(cx))
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::descriptor_pool;

    #[test]
    fn a_method_is_protected_unless_listed() {
        assert_eq!(access("/socio.v1.AuthService/SendCode"), Access::Public);
        assert_eq!(access("/socio.v1.LandingService/TrackEvent"), Access::Public);
        assert_eq!(access("/socio.v1.AuthService/Logout"), Access::Optional);
        assert_eq!(access("/socio.v1.AuthService/GetMe"), Access::Caller);
        assert_eq!(access("/socio.v1.AdminService/ListUsers"), Access::Admin);
        assert_eq!(access("/socio.v1.AuthService/SendCodeTwice"), Access::Caller, "names match whole");
        assert_eq!(access("/socio.v1.NewService/Anything"), Access::Caller);
    }

    #[test]
    fn every_listed_name_is_a_method_or_service_of_the_contracts() {
        let pool = descriptor_pool();
        let known = |entry: &str| {
            let name = entry.trim_start_matches('/');
            match name.split_once('/') {
                Some((service, "")) => {
                    service.starts_with("grpc.") || pool.get_service_by_name(service).is_some()
                }
                Some((service, method)) => {
                    pool.get_service_by_name(service).is_some_and(|s| s.methods().any(|m| m.name() == method))
                }
                None => false,
            }
        };
        for entry in PUBLIC.iter().chain(OPTIONAL).chain(ADMIN) {
            assert!(known(entry), "{entry} names nothing in the contracts");
        }
    }
}
