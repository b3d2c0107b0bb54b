//! One RPC as a handler sees it, and what it answers. A service's handlers are plain methods,
//! `async fn name(&self, call: Call<Name>) -> Answer<Name>`, where `Name` is the method's marker
//! type (its request and response messages, [`Method`]); they fail with an `AppError`.
//! [`rpc_service!`] writes the markers and the tonic trait around the handlers,
//! one line a method, so no handler repeats the wire's signature and every error becomes a status
//! in one place (the edge has scoped the call's language, so the status is localised).

use crate::{
    error::AppError,
    identity::{caller::Caller, users::User},
    locale::{self, Language},
};

use super::{client_address, rest};

/// An RPC method, by the messages it takes and answers.
pub trait Method {
    type Request;
    type Response;
}

/// A call: the request (metadata, extensions, body), with the caller the edge authenticated.
pub struct Call<M: Method> {
    request: tonic::Request<M::Request>,
}

impl<M: Method> Call<M> {
    pub fn new(request: tonic::Request<M::Request>) -> Self {
        Self { request }
    }

    /// The logged-in caller; the edge has refused the call already when the method needs one.
    pub fn caller(&self) -> Result<&Caller, AppError> {
        self.optional_caller().ok_or(AppError::Unauthenticated)
    }

    /// The logged-in caller's account.
    pub fn user(&self) -> Result<&User, AppError> {
        Ok(&self.caller()?.user)
    }

    /// The caller of a method anyone may call, when a valid token came with it.
    pub fn optional_caller(&self) -> Option<&Caller> {
        self.request.extensions().get::<Caller>()
    }

    /// The caller's language from the request's `Accept-Language` metadata.
    fn lang(&self) -> Language {
        Language::from_accept_language(
            self.request.metadata().get("accept-language").and_then(|v| v.to_str().ok()),
        )
    }

    /// The language the call names in its body, which wins over `Accept-Language` for the whole
    /// reply, errors included.
    pub fn named_lang(&self, named: &str) -> Language {
        let lang = Language::parse(named).unwrap_or_else(|| self.lang());
        locale::answer_in(lang);
        lang
    }

    /// The caller's address, for the per-address limits.
    pub fn client_address(&self) -> Option<String> {
        client_address::of(&self.request)
    }

    /// The request's `User-Agent` (the browser's, over gRPC-Web and REST), empty when absent.
    pub fn user_agent(&self) -> &str {
        self.request.metadata().get("user-agent").and_then(|v| v.to_str().ok()).unwrap_or_default()
    }

    /// The request's body.
    pub fn body(&self) -> &M::Request {
        self.request.get_ref()
    }

    /// The request's body, taken.
    pub fn into_body(self) -> M::Request {
        self.request.into_inner()
    }
}

/// A handler's reply: the message, and a localised success message for the REST envelope.
pub struct Reply<T> {
    response: tonic::Response<T>,
}

impl<T> Reply<T> {
    /// The message, with a success message (in the call's language, from the catalogue) that the
    /// REST envelope shows as `message`.
    pub fn with_message(message: T, text: impl AsRef<str>) -> Self {
        let mut response = tonic::Response::new(message);
        let encoded =
            percent_encoding::utf8_percent_encode(text.as_ref(), percent_encoding::NON_ALPHANUMERIC)
                .to_string();
        if let Ok(value) = encoded.parse() {
            response.metadata_mut().insert(rest::MESSAGE_METADATA, value);
        }
        Self { response }
    }

    /// The wire's response, for the trait `rpc_service!` writes.
    pub fn into_response(self) -> tonic::Response<T> {
        self.response
    }
}

impl<T> From<T> for Reply<T> {
    fn from(message: T) -> Self {
        Self { response: tonic::Response::new(message) }
    }
}

/// What the handler of method `M` returns.
pub type Answer<M> = Result<Reply<<M as Method>::Response>, AppError>;

/// Implements a generated tonic service trait for an API type by handing each listed method to the
/// type's own handler of the same name, `(&self, Call<Name>) -> Answer<Name>`, or to the handler
/// named after `as` when several methods share one. It also writes each method's marker type,
/// `Name` (the method's name in upper camel case, as the contracts name its messages `NameRequest`
/// and `NameResponse`), into the invoking module. Methods under `streams` answer with a stream of
/// `NameResponse`.
macro_rules! rpc_service {
    (
        $service:ident for $api:ty {
            $($method:ident $(as $handler:ident)?),* $(,)?
        }
        $(streams { $($stream:ident),* $(,)? })?
    ) => {
        paste::paste! {
            $(
                #[doc = "The `" $method "` method's messages."]
                pub struct [<$method:camel>];
                impl $crate::api::call::Method for [<$method:camel>] {
                    type Request = $crate::proto::socio::v1::[<$method:camel Request>];
                    type Response = $crate::proto::socio::v1::[<$method:camel Response>];
                }
            )*
            $($(
                #[doc = "The `" $stream "` method's messages: it answers with a stream."]
                pub struct [<$stream:camel>];
                impl $crate::api::call::Method for [<$stream:camel>] {
                    type Request = $crate::proto::socio::v1::[<$stream:camel Request>];
                    type Response =
                        tonic::codegen::BoxStream<$crate::proto::socio::v1::[<$stream:camel Response>]>;
                }
            )*)?

            #[tonic::async_trait]
            impl $service for $api {
                $(
                    async fn $method(
                        &self,
                        request: tonic::Request<$crate::proto::socio::v1::[<$method:camel Request>]>,
                    ) -> Result<
                        tonic::Response<$crate::proto::socio::v1::[<$method:camel Response>]>,
                        tonic::Status,
                    > {
                        let call = $crate::api::call::Call::<[<$method:camel>]>::new(request);
                        Ok($crate::api::call::rpc_handler!($api, $method $(, $handler)?)(self, call).await?.into_response())
                    }
                )*
                $($(
                    async fn $stream(
                        &self,
                        request: tonic::Request<$crate::proto::socio::v1::[<$stream:camel Request>]>,
                    ) -> Result<
                        tonic::Response<
                            tonic::codegen::BoxStream<$crate::proto::socio::v1::[<$stream:camel Response>]>,
                        >,
                        tonic::Status,
                    > {
                        let call = $crate::api::call::Call::<[<$stream:camel>]>::new(request);
                        Ok(<$api>::$stream(self, call).await?.into_response())
                    }
                )*)?
            }

            impl $crate::api::unary::UnaryMethods for $api {
                fn unary_methods(
                    api: std::sync::Arc<Self>,
                ) -> Vec<(String, $crate::api::unary::UnaryFn)> {
                    let service = $crate::proto::socio::v1::[<$service:snake _server>]::SERVICE_NAME;
                    vec![$(
                        (
                            format!("/{service}/{}", stringify!([<$method:camel>])),
                            $crate::api::unary::unary::<
                                $api,
                                $crate::proto::socio::v1::[<$method:camel Request>],
                                $crate::proto::socio::v1::[<$method:camel Response>],
                            >(api.clone(), |api, request| {
                                Box::pin(async move { <$api as $service>::$method(&*api, request).await })
                            }),
                        ),
                    )*]
                }
            }
        }
    };
}

/// The handler of a method in [`rpc_service!`]: its own, or the one named.
macro_rules! rpc_handler {
    ($api:ty, $method:ident) => {
        <$api>::$method
    };
    ($api:ty, $method:ident, $handler:ident) => {
        <$api>::$handler
    };
}

pub(crate) use {rpc_handler, rpc_service};
