//! Identity's part of a person's number change (the orchestration is
//! `conversation::number_change`): the account answers to the new number, codes sent to the old
//! one stop working, an account absorbed into it goes, and a pair that cannot be merged is listed
//! for an admin.

use super::{changes, contact::Bsuid, phone::PhoneNumber, search::search_key, users::User};
use crate::{
    db::{Tx, personal},
    error::AppError,
};

/// The account answers to `new_phone`; a code sent to the old number no longer logs anyone in.
pub(in crate::identity) async fn change_number(
    conn: &mut Tx,
    user: &User,
    new_phone: &PhoneNumber,
) -> Result<(), AppError> {
    sqlx::query(
        "update users set phone_number = $1, phone_key = $2, search_key = $3, updated_at = $4 where id = $5",
    )
    .bind(new_phone.e164())
    .bind(new_phone.identity().e164())
    .bind(search_key(&user.name, Some(new_phone), user.username.as_deref()))
    .bind(conn.now_ms())
    .bind(&user.id)
    .execute(&mut **conn)
    .await?;
    if let Some(old) = &user.phone {
        for sql in [
            "delete from login_codes where phone_number = $1",
            "delete from phone_auth_state where phone_number = $1",
        ] {
            sqlx::query(sql).bind(old.identity().e164()).execute(&mut **conn).await?;
        }
    }
    changes::user_changed(conn, &user.id).await
}

/// The account answers to a new business-scoped user id (a number change gives the person one;
/// `user_changed_user_id` reports it alone).
pub(in crate::identity) async fn change_bsuid(
    conn: &mut Tx,
    user_id: &str,
    bsuid: &Bsuid,
) -> Result<(), AppError> {
    sqlx::query("update users set bsuid = $1, updated_at = $2 where id = $3")
        .bind(bsuid.as_str())
        .bind(conn.now_ms())
        .bind(user_id)
        .execute(&mut **conn)
        .await?;
    changes::user_changed(conn, user_id).await
}

/// `user` moved to a number (or BSUID: `key`) that `other` holds with more than a conversation: an
/// admin decides.
pub(in crate::identity) async fn record_conflict(
    conn: &mut Tx,
    user_id: &str,
    other_user_id: &str,
    key: &str,
) -> Result<(), AppError> {
    sqlx::query(
        "insert into phone_key_conflicts (user_id, kept_user_id, phone_key, found_at) values ($1, $2, $3, $4) \
         on conflict (user_id) do update set kept_user_id = $2, phone_key = $3, found_at = $4",
    )
    .bind(user_id)
    .bind(other_user_id)
    .bind(key)
    .bind(conn.now_ms())
    .execute(&mut **conn)
    .await?;
    Ok(())
}

/// An account whose conversation went to another: identity's rows of it go, the user row last
/// (what other domains kept of it was handed over, or follows the user row's `on delete cascade`).
pub(in crate::identity) async fn remove_absorbed(conn: &mut Tx, user_id: &str) -> Result<(), AppError> {
    personal::erase(conn, super::PERSONAL, user_id).await?;
    changes::user_changed(conn, user_id).await?;
    Ok(())
}

/// The numbers and ids an account answers to, as a door for the conversation, which follows a
/// person to a new number inside the inbox's transaction.
#[derive(Clone, Copy, Debug, Default)]
pub struct Numbers;

impl Numbers {
    /// The account answers to a new number from now on, in the caller's transaction (a number
    /// change, two accounts joined).
    pub async fn change_number_in(
        &self,
        tx: &mut Tx,
        user: &User,
        phone: &PhoneNumber,
    ) -> Result<(), AppError> {
        change_number(tx, user, phone).await
    }

    /// The account answers to a new business-scoped id from now on, in the caller's transaction.
    pub async fn change_bsuid_in(&self, tx: &mut Tx, user_id: &str, bsuid: &Bsuid) -> Result<(), AppError> {
        change_bsuid(tx, user_id, bsuid).await
    }

    /// `user_id` moved to a number or id (`key`) that `other_user_id` holds with more than a
    /// conversation: listed for an admin, in the caller's transaction.
    pub async fn record_conflict_in(
        &self,
        tx: &mut Tx,
        user_id: &str,
        other_user_id: &str,
        key: &str,
    ) -> Result<(), AppError> {
        record_conflict(tx, user_id, other_user_id, key).await
    }

    /// An account whose conversation went to another goes, in the caller's transaction.
    pub async fn remove_absorbed_in(&self, tx: &mut Tx, user_id: &str) -> Result<(), AppError> {
        remove_absorbed(tx, user_id).await
    }
}
