//! The contracts' unary methods as plain functions, from a request's encoded message to the reply's:
//! how the REST transcoder reaches a service without an HTTP round through the gRPC router (no
//! request to build, no frames, no body to collect, no status to parse back from trailers).
//! [`rpc_service!`](super::call::rpc_service) registers each method of a service beside the tonic
//! trait it writes, so both doors call the very same handler; the edge's rule, write budget,
//! language and metrics guard this door too ([`Gate::unary`](super::edge::Gate::unary)).

use std::{collections::HashMap, sync::Arc};

use bytes::Bytes;
use futures::future::BoxFuture;
use prost::Message;

use crate::error::AppError;

/// What a unary method's function returns: the encoded reply with its metadata, or the status.
pub type UnaryFuture = BoxFuture<'static, Result<tonic::Response<Bytes>, tonic::Status>>;

/// One unary method: the request's encoded message (with its metadata and extensions) in, the
/// encoded reply out.
pub type UnaryFn = Arc<dyn Fn(tonic::Request<Bytes>) -> UnaryFuture + Send + Sync>;

/// A service's handler of one method, taking `I` and answering `O`, as the tonic trait calls it.
pub type Handler<A, I, O> =
    fn(Arc<A>, tonic::Request<I>) -> BoxFuture<'static, Result<tonic::Response<O>, tonic::Status>>;

/// An API type's unary methods by gRPC path (`/socio.v1.AuthService/GetMe`); `rpc_service!`
/// implements it.
pub trait UnaryMethods: Send + Sync + 'static {
    fn unary_methods(api: Arc<Self>) -> Vec<(String, UnaryFn)>;
}

/// Every service's unary methods, by gRPC path.
#[derive(Clone, Default)]
pub struct Unaries {
    methods: HashMap<String, UnaryFn>,
}

impl Unaries {
    /// `api`'s methods added.
    pub fn with<A: UnaryMethods>(mut self, api: Arc<A>) -> Self {
        self.methods.extend(A::unary_methods(api));
        self
    }

    /// The method at `grpc_path`.
    pub fn get(&self, grpc_path: &str) -> Option<&UnaryFn> {
        self.methods.get(grpc_path)
    }
}

/// `handler` of `api` as a [`UnaryFn`]: decodes the request message, calls it, encodes the reply.
pub fn unary<A, I, O>(api: Arc<A>, handler: Handler<A, I, O>) -> UnaryFn
where
    A: Send + Sync + 'static,
    I: Message + Default + Send + 'static,
    O: Message + Send + 'static,
{
    Arc::new(move |request: tonic::Request<Bytes>| {
        let api = api.clone();
        Box::pin(async move {
            let (metadata, extensions, encoded) = request.into_parts();
            // The transcoder encoded it from this very message's descriptor: failing is ours.
            let message = I::decode(encoded).map_err(|err| {
                tonic::Status::from(AppError::Internal(anyhow::anyhow!("decoding a REST request: {err}")))
            })?;
            let response = handler(api, tonic::Request::from_parts(metadata, extensions, message)).await?;
            let (metadata, message, extensions) = response.into_parts();
            Ok(tonic::Response::from_parts(metadata, Bytes::from(message.encode_to_vec()), extensions))
        })
    })
}
