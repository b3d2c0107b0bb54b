//! Access tokens this server has verified already: a browser or app sends the same token with
//! every call for its fifteen minutes, and reading it again each time (two base64 decodes, two JSON
//! documents, an HMAC) cost the server about 3 µs of the 35 a `GET /api/auth/me` took
//! (docs/performance.md, "The REST path"). Only a token that passed every check is kept, under its whole text — the
//! signature included, so no other text finds it — and its times are checked again against the
//! application's clock at every use, so it ends exactly when it would have. The cache is bounded:
//! past [`CAPACITY`] tokens it starts again.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

/// Most tokens kept (about 400 bytes each).
pub const CAPACITY: usize = 4_096;

/// The tokens verified, with what each was verified to say (`V`), shared by every clone of the
/// keys.
#[derive(Clone)]
pub struct VerifiedTokens<V> {
    tokens: Arc<Mutex<HashMap<Box<str>, V>>>,
}

impl<V> Default for VerifiedTokens<V> {
    fn default() -> Self {
        Self { tokens: Arc::default() }
    }
}

impl<V: Clone> VerifiedTokens<V> {
    /// What `token` was verified to say, if it was.
    pub fn get(&self, token: &str) -> Option<V> {
        self.tokens.lock().expect("the verified tokens are never poisoned").get(token).cloned()
    }

    /// Keeps `token`, which passed every check.
    pub fn keep(&self, token: &str, verified: V) {
        let mut tokens = self.tokens.lock().expect("the verified tokens are never poisoned");
        if tokens.len() >= CAPACITY {
            tokens.clear();
        }
        tokens.insert(token.into(), verified);
    }

    /// Forgets `token` (its times no longer pass).
    pub fn forget(&self, token: &str) {
        self.tokens.lock().expect("the verified tokens are never poisoned").remove(token);
    }

    /// How many tokens are kept.
    pub fn len(&self) -> usize {
        self.tokens.lock().expect("the verified tokens are never poisoned").len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
