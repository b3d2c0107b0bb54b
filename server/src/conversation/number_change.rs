//! A person changed their WhatsApp number (Meta's `user_changed_number` system notice): their
//! account — conversation, plan, subscription, sessions — follows them to the new number, in the
//! caller's transaction. Everything hangs off the user's id, so moving is changing the number.
//! An orchestration: each domain below moves or keeps its own rows.
//!
//! When the new number already has an account of its own, it was almost always made by the person
//! writing from the new number before the notice arrived: one that holds nothing but conversation
//! (free, no plan, no subscription) is absorbed — its messages join the moving account and it goes.
//! One that holds more (a plan, a subscription, Pro or admin) is never merged silently: both stay
//! as they are and the pair is listed for an admin (`phone_key_conflicts`, README).

use sqlx::AnyConnection;

use super::{messages, notices};
use crate::{
    billing::subscriptions,
    db::Tx,
    identity::{
        numbers,
        phone::PhoneNumber,
        users::{self, Role, Tier, User},
    },
    plan::store,
};

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
    conn: &mut Tx,
    user: &User,
    new_phone: &PhoneNumber,
) -> Result<NumberChange, sqlx::Error> {
    let mut outcome = NumberChange::Moved;
    if let Some(other) = users::find_by_phone(conn, new_phone).await?
        && other.id != user.id
    {
        if holds_more_than_conversation(conn, &other).await? {
            numbers::record_conflict(&mut *conn, &user.id, &other.id, new_phone).await?;
            return Ok(NumberChange::Conflict { other_user_id: other.id });
        }
        absorb(conn, &other.id, &user.id).await?;
        outcome = NumberChange::Absorbed { absorbed_user_id: other.id };
    }
    numbers::change_number(conn, user, new_phone).await?;
    Ok(outcome)
}

async fn holds_more_than_conversation(conn: &mut AnyConnection, user: &User) -> Result<bool, sqlx::Error> {
    Ok(user.tier == Tier::Pro
        || user.role == Role::Admin
        || store::has_plan(conn, &user.id).await?
        || subscriptions::holds_open(conn, &user.id).await?)
}

/// Hands what `from` holds (its conversation, past checkouts, notices) to `into`, then removes it.
async fn absorb(conn: &mut Tx, from: &str, into: &str) -> Result<(), sqlx::Error> {
    messages::hand_over(conn, from, into).await?;
    subscriptions::hand_over(conn, from, into).await?;
    notices::hand_over(conn, from, into).await?;
    numbers::remove_absorbed(conn, from).await
}
