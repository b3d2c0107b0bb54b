//! The admin guard: a tower service in front of every admin-only gRPC service. It authenticates the
//! caller before the service sees the request — for native gRPC, gRPC-Web and REST alike, since
//! REST reaches the services through the same router — and hands the `Caller` on in the request's
//! extensions. A method added later is guarded without anyone remembering to.

use std::{
    convert::Infallible,
    task::{Context, Poll},
};

use futures::future::BoxFuture;
use tonic::{body::Body, metadata::MetadataMap, server::NamedService};
use tower::{Service, ServiceExt};

use crate::{identity::caller::Authenticator, locale::Language};

#[derive(Clone)]
pub struct AdminOnly<S> {
    inner: S,
    auth: Authenticator,
}

impl<S> AdminOnly<S> {
    pub fn new(inner: S, auth: Authenticator) -> Self {
        Self { inner, auth }
    }
}

impl<S: NamedService> NamedService for AdminOnly<S> {
    const NAME: &'static str = S::NAME;
}

impl<S> Service<http::Request<Body>> for AdminOnly<S>
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
        Box::pin(async move {
            let headers = request.headers().clone();
            let lang =
                Language::from_accept_language(headers.get("accept-language").and_then(|v| v.to_str().ok()));
            match auth.admin(&MetadataMap::from_headers(headers)).await {
                Ok(caller) => {
                    request.extensions_mut().insert(caller);
                    inner.oneshot(request).await
                }
                Err(err) => Ok(err.into_status(lang).into_http()),
            }
        })
    }
}
