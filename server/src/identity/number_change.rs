//! A person changed their WhatsApp number (Meta's `user_changed_number` system notice): their
//! account — conversation, plan, subscription, sessions — follows them to the new number, in the
//! caller's transaction. Everything hangs off the user's id, so moving is changing the number.
//!
//! When the new number already has an account of its own, it was almost always made by the person
//! writing from the new number before the notice arrived: one that holds nothing but conversation
//! (free, no plan, no subscription) is absorbed — its messages join the moving account and it goes.
//! One that holds more (a plan, a subscription, Pro or admin) is never merged silently: both stay
//! as they are and the pair is listed for an admin (`phone_key_conflicts`, README).

use sqlx::{AnyConnection, Row};

use super::{
    phone::PhoneNumber,
    search::search_key,
    users::{self, Role, Tier, User},
};
use crate::db::now_ms;

/// What following a person to their new number did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberChange {
    /// The account now answers to the new number.
    Moved,
    /// It also took in the conversation of the new number's account, which is gone.
    Absorbed { absorbed_user_id: String },
    /// The new number has an account with its own plan or subscription: nothing changed, an admin
    /// decides.
    Conflict { other_user_id: String },
}

pub async fn follow(
    conn: &mut AnyConnection,
    user: &User,
    new_phone: &PhoneNumber,
) -> Result<NumberChange, sqlx::Error> {
    let now = now_ms();
    let mut outcome = NumberChange::Moved;
    if let Some(other) = users::find_by_phone(conn, new_phone).await?
        && other.id != user.id
    {
        if holds_more_than_conversation(conn, &other).await? {
            sqlx::query(
                "insert into phone_key_conflicts (user_id, kept_user_id, phone_key, found_at) values ($1, $2, $3, $4) \
                 on conflict (user_id) do update set kept_user_id = $2, phone_key = $3, found_at = $4",
            )
            .bind(&user.id)
            .bind(&other.id)
            .bind(new_phone.identity().e164())
            .bind(now)
            .execute(&mut *conn)
            .await?;
            return Ok(NumberChange::Conflict { other_user_id: other.id });
        }
        absorb(conn, &other.id, &user.id).await?;
        outcome = NumberChange::Absorbed { absorbed_user_id: other.id };
    }
    sqlx::query(
        "update users set phone_number = $1, phone_key = $2, search_key = $3, updated_at = $4 where id = $5",
    )
    .bind(new_phone.e164())
    .bind(new_phone.identity().e164())
    .bind(search_key(&user.name, new_phone))
    .bind(now)
    .bind(&user.id)
    .execute(&mut *conn)
    .await?;
    // A code sent to the old number no longer logs anyone in.
    for sql in [
        "delete from login_codes where phone_number = $1",
        "delete from phone_auth_state where phone_number = $1",
    ] {
        sqlx::query(sql).bind(user.phone.identity().e164()).execute(&mut *conn).await?;
    }
    Ok(outcome)
}

async fn holds_more_than_conversation(conn: &mut AnyConnection, user: &User) -> Result<bool, sqlx::Error> {
    if user.tier == Tier::Pro || user.role == Role::Admin {
        return Ok(true);
    }
    let held: i64 = sqlx::query(
        "select (select count(*) from business_plans where user_id = $1) \
              + (select count(*) from subscriptions where user_id = $1 and status <> 'canceled') as n",
    )
    .bind(&user.id)
    .fetch_one(&mut *conn)
    .await?
    .try_get("n")?;
    Ok(held > 0)
}

/// Moves what `from` holds (its conversation, past checkouts, notices) to `into`, then deletes it.
async fn absorb(conn: &mut AnyConnection, from: &str, into: &str) -> Result<(), sqlx::Error> {
    for sql in [
        "update messages set user_id = $2 where user_id = $1",
        "update checkout_sessions set user_id = $2 where user_id = $1",
        "update subscriptions set user_id = $2 where user_id = $1",
        "update whatsapp_notices set user_id = $2 where user_id = $1",
        "delete from refresh_tokens where user_id = $1 and $2 = $2",
        "delete from guide_state where user_id = $1 and $2 = $2",
        "delete from phone_key_conflicts where (user_id = $1 or kept_user_id = $1) and $2 = $2",
        "delete from users where id = $1 and $2 = $2",
    ] {
        sqlx::query(sql).bind(from).bind(into).execute(&mut *conn).await?;
    }
    Ok(())
}
