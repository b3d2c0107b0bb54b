//! Who is calling: the one place a bearer token becomes a caller, used by every protected RPC
//! whichever protocol it came by (REST reaches the same service code in process). The user is read
//! on every call — one indexed lookup — so an erased user's or a changed role's tokens stop working
//! at once, and so does a session ended by logout.

use tonic::metadata::MetadataMap;

use super::{
    sessions::TokenKeys,
    users::{self, Role, User},
};
use crate::{db::Db, error::AppError};

#[derive(Clone, Debug)]
pub struct Caller {
    pub user: User,
    /// The session (refresh-token family) the access token belongs to.
    pub session_id: String,
}

impl Caller {
    pub fn is_admin(&self) -> bool {
        self.user.role == Role::Admin
    }
}

#[derive(Clone)]
pub struct Authenticator {
    db: Db,
    keys: TokenKeys,
}

impl Authenticator {
    pub fn new(db: Db, keys: TokenKeys) -> Self {
        Self { db, keys }
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
        let mut conn = self.db.pool().acquire().await?;
        let (user, ended) = users::find_session_user(&mut conn, &claims.user_id, &claims.session_id)
            .await?
            .ok_or(AppError::Unauthenticated)?;
        if user.role != claims.role || ended {
            return Err(AppError::Unauthenticated);
        }
        Ok(Caller { user, session_id: claims.session_id })
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
