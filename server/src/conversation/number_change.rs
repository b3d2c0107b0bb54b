//! A person changed their WhatsApp number (Meta's `user_changed_number` system notice, which also
//! names the new business-scoped user id, or `user_changed_user_id` with only that): their
//! account — conversation, plan, subscription, sessions — follows them to the new number and
//! BSUID, in the caller's transaction. Everything hangs off the user's id, so moving is changing
//! the number. An orchestration: each domain below moves or keeps its own rows.
//!
//! The same joining serves a person seen first without their number: when a later delivery shows
//! the number of an older account, the two are one person ([`join`]).
//!
//! When the new number already has an account of its own, it was almost always made by the person
//! writing from the new number before the notice arrived: one that holds nothing but conversation
//! (free, no plan, no subscription) is absorbed — its messages join the moving account and it goes.
//! One that holds more (a plan, a subscription, Pro or admin) is never merged silently: both stay
//! as they are and the pair is listed for an admin (`phone_key_conflicts`, docs/admin.md).

use sqlx::AnyConnection;

use super::{messages, notices};
use crate::{
    billing::subscriptions,
    db::Tx,
    identity::{
        contact::Bsuid,
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

pub(in crate::conversation) async fn follow(
    conn: &mut Tx,
    user: &User,
    new_phone: Option<&PhoneNumber>,
    new_bsuid: Option<&Bsuid>,
) -> Result<NumberChange, sqlx::Error> {
    let mut outcome = NumberChange::Moved;
    if let Some(new_phone) = new_phone {
        if let Some(other) = users::find_by_phone(conn, new_phone).await?
            && other.id != user.id
        {
            if holds_more_than_conversation(conn, &other).await? {
                numbers::record_conflict(&mut *conn, &user.id, &other.id, new_phone.identity().e164())
                    .await?;
                return Ok(NumberChange::Conflict { other_user_id: other.id });
            }
            absorb(conn, &other.id, &user.id).await?;
            outcome = NumberChange::Absorbed { absorbed_user_id: other.id };
        }
        numbers::change_number(conn, user, new_phone).await?;
    }
    if let Some(new_bsuid) = new_bsuid {
        if let Some(other) = users::find_by_bsuid(conn, new_bsuid).await?
            && other.id != user.id
        {
            if holds_more_than_conversation(conn, &other).await? {
                numbers::record_conflict(&mut *conn, &user.id, &other.id, new_bsuid.as_str()).await?;
                return Ok(NumberChange::Conflict { other_user_id: other.id });
            }
            absorb(conn, &other.id, &user.id).await?;
            outcome = NumberChange::Absorbed { absorbed_user_id: other.id };
        }
        numbers::change_bsuid(conn, &user.id, new_bsuid).await?;
    }
    Ok(outcome)
}

/// One person, two accounts: `user` holds their number, `also` their business-scoped id (made
/// while WhatsApp hid the number). The one that holds nothing but conversation joins the other;
/// when both hold more (a plan, a subscription), both stay and the pair is listed for an admin, and
/// `user` answers. Returns the account that answers now.
pub(in crate::conversation) async fn join(
    conn: &mut Tx,
    user: User,
    also: User,
) -> Result<User, sqlx::Error> {
    let bsuid = also.bsuid.clone();
    let (keep, gone) = if !holds_more_than_conversation(conn, &also).await? {
        (user, also)
    } else if !holds_more_than_conversation(conn, &user).await? {
        (also, user)
    } else {
        let key = bsuid.as_ref().map(|b| b.as_str().to_owned()).unwrap_or_default();
        numbers::record_conflict(&mut *conn, &also.id, &user.id, &key).await?;
        tracing::warn!(user = %user.id, other = %also.id, "one person's number and business-scoped id name two accounts that both hold a plan or subscription: an admin decides");
        return Ok(user);
    };
    absorb(conn, &gone.id, &keep.id).await?;
    if let Some(phone) = gone.phone.as_ref().filter(|_| keep.phone.is_none()) {
        numbers::change_number(conn, &keep, phone).await?;
    }
    if let Some(bsuid) = &bsuid {
        numbers::change_bsuid(conn, &keep.id, bsuid).await?;
    }
    tracing::info!(user = %keep.id, absorbed = %gone.id, "one person's number and business-scoped id were two accounts: joined");
    users::find_by_id(&mut *conn, &keep.id).await?.ok_or(sqlx::Error::RowNotFound)
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
    super::proactive::hand_over(conn, from, into).await?;
    numbers::remove_absorbed(conn, from).await
}
