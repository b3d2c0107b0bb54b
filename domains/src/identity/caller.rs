//! Who is calling: the one place a bearer token becomes a caller, used by every protected RPC
//! whichever protocol it came by (REST reaches the same service code in process). A token counts
//! only while its session stands — it exists, is the token's user's, was not ended by logout,
//! revocation, a role change or erasure — which the live-session cache answers from memory
//! (`live`), so checking costs no query on most calls.

use tonic::metadata::MetadataMap;

use super::{
    live::{Live, LiveSessions},
    sessions::TokenKeys,
    users::{Role, User},
};
use crate::error::AppError;

#[derive(Clone, Debug)]
pub struct Caller {
    pub user: User,
    /// The session (refresh-token family) the access token belongs to.
    pub session_id: String,
    /// When the access token runs out (ms).
    pub token_expires_at: i64,
}

impl Caller {
    pub fn is_admin(&self) -> bool {
        self.user.role == Role::Admin
    }
}

#[derive(Clone)]
pub struct Authenticator {
    sessions: LiveSessions,
    keys: TokenKeys,
}

impl Authenticator {
    pub fn new(sessions: LiveSessions, keys: TokenKeys) -> Self {
        Self { sessions, keys }
    }

    pub fn sessions(&self) -> &LiveSessions {
        &self.sessions
    }

    pub fn keys(&self) -> &TokenKeys {
        &self.keys
    }

    /// The logged-in caller, or Unauthenticated.
    pub async fn caller(&self, metadata: &MetadataMap) -> Result<Caller, AppError> {
        let token = metadata
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
            .ok_or(AppError::Unauthenticated)?;
        let claims = self.keys.verify(token.trim()).ok_or(AppError::Unauthenticated)?;
        let Live { user, .. } = self
            .sessions
            .find(&claims.user_id, &claims.session_id)
            .await?
            .ok_or(AppError::Unauthenticated)?;
        if user.role != claims.role {
            return Err(AppError::Unauthenticated);
        }
        Ok(Caller { user, session_id: claims.session_id, token_expires_at: claims.expires_at })
    }

    /// The caller, who must be an admin: PermissionDenied otherwise.
    pub async fn admin(&self, metadata: &MetadataMap) -> Result<Caller, AppError> {
        let caller = self.caller(metadata).await?;
        if !caller.is_admin() {
            tracing::warn!(target: "security", event = "permission_denied", user = %caller.user.id, "a non-admin called an admin RPC");
            return Err(AppError::PermissionDenied);
        }
        Ok(caller)
    }
}
