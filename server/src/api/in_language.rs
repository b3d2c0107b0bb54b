//! A reply's body, polled in the language of the request it answers: a streamed reply produces
//! its items, and their errors, after the handler has returned and its language scope has ended,
//! so each poll enters the scope again.

use std::{
    pin::Pin,
    task::{Context, Poll},
};

use axum::body::Body;
use http_body::{Frame, SizeHint};

use crate::locale::{self, Language};

/// A reply body polled in the request's language: a streamed reply produces its items (and their
/// errors) after the handler has returned.
pub struct InLanguage {
    lang: Language,
    body: Body,
}

impl InLanguage {
    pub fn new(lang: Language, body: Body) -> Self {
        Self { lang, body }
    }
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
