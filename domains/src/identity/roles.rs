//! Roles: granting and removing the admin role. A role change ends the person's sessions, so it
//! sits above both users and sessions.

use super::{
    changes,
    contact::Contact,
    phone::PhoneNumber,
    sessions,
    users::{self, Role, Spelling, User},
};
use crate::{
    db::{Db, Tx},
    error::AppError,
    locale::Language,
};

/// Roles as a service: each change committed with the end of the person's sessions.
#[derive(Clone)]
pub struct Roles {
    db: Db,
}

impl Roles {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Makes the number an admin, registering it if it never wrote to us (`ADMIN_PHONES`,
    /// `socio admin promote`); the admin as they are now.
    pub async fn promote(&self, phone: &PhoneNumber) -> Result<User, AppError> {
        let mut tx = self.db.begin().await?;
        let user = ensure_admin(&mut tx, phone).await?;
        tx.commit().await?;
        Ok(user)
    }

    /// Grants or removes the admin role; whether it changed (the person's sessions end then).
    pub async fn set(&self, user_id: &str, role: Role) -> Result<bool, AppError> {
        let mut tx = self.db.begin().await?;
        let changed = set_role(&mut tx, user_id, role).await?;
        tx.commit().await?;
        Ok(changed)
    }
}

/// Grants or removes the admin role. A role change ends the user's sessions.
pub(in crate::identity) async fn set_role(
    conn: &mut Tx,
    user_id: &str,
    role: Role,
) -> Result<bool, AppError> {
    let changed = sqlx::query("update users set role = $1, updated_at = $2 where id = $3 and role <> $1")
        .bind(role.as_str())
        .bind(conn.now_ms())
        .bind(user_id)
        .execute(&mut **conn)
        .await?
        .rows_affected()
        == 1;
    if changed {
        sessions::revoke_user(conn, user_id).await?;
        changes::user_changed(conn, user_id).await?;
    }
    Ok(changed)
}

/// Makes the number an admin, registering it if it never wrote to us (`ADMIN_PHONES`,
/// `socio admin promote`).
pub(in crate::identity) async fn ensure_admin(conn: &mut Tx, phone: &PhoneNumber) -> Result<User, AppError> {
    let contact = Contact::phone(phone.clone());
    let user = users::register_contact(conn, &contact, Spelling::Typed, "", Language::default()).await?.user;
    if user.role != Role::Admin {
        set_role(conn, &user.id, Role::Admin).await?;
    }
    users::find_by_id(&mut *conn, &user.id).await?.ok_or_else(|| sqlx::Error::RowNotFound.into())
}
