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

use crate::{
    billing::subscriptions::Subscriptions,
    db::{Db, Tx, personal},
    error::AppError,
    identity::{
        contact::Bsuid,
        numbers::Numbers,
        phone::PhoneNumber,
        users::{Role, Tier, User, Users},
    },
    plan::{Plans, events::PlanEvents},
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

/// A person's accounts as they follow their number: the doors of the domains whose rows move,
/// used inside the inbox's transaction.
#[derive(Clone)]
pub(in crate::conversation) struct Accounts {
    users: Users,
    plans: Plans,
    subscriptions: Subscriptions,
}

impl Accounts {
    pub(in crate::conversation) fn new(db: Db) -> Self {
        Self {
            users: Users::new(db.clone()),
            // Whether a plan exists is all it asks of the plans: it publishes nothing.
            plans: Plans::new(db.clone(), PlanEvents::default()),
            subscriptions: Subscriptions::new(db),
        }
    }

    pub(in crate::conversation) async fn follow(
        &self,
        conn: &mut Tx,
        user: &User,
        new_phone: Option<&PhoneNumber>,
        new_bsuid: Option<&Bsuid>,
    ) -> Result<NumberChange, AppError> {
        let mut outcome = NumberChange::Moved;
        if let Some(new_phone) = new_phone {
            if let Some(other) = self.users.find_by_phone_in(conn, new_phone).await?
                && other.id != user.id
            {
                if self.holds_more_than_conversation(conn, &other).await? {
                    Numbers
                        .record_conflict_in(conn, &user.id, &other.id, new_phone.identity().e164())
                        .await?;
                    return Ok(NumberChange::Conflict { other_user_id: other.id });
                }
                self.absorb(conn, &other.id, &user.id).await?;
                outcome = NumberChange::Absorbed { absorbed_user_id: other.id };
            }
            Numbers.change_number_in(conn, user, new_phone).await?;
        }
        if let Some(new_bsuid) = new_bsuid {
            if let Some(other) = self.users.find_by_bsuid_in(conn, new_bsuid).await?
                && other.id != user.id
            {
                if self.holds_more_than_conversation(conn, &other).await? {
                    Numbers.record_conflict_in(conn, &user.id, &other.id, new_bsuid.as_str()).await?;
                    return Ok(NumberChange::Conflict { other_user_id: other.id });
                }
                self.absorb(conn, &other.id, &user.id).await?;
                outcome = NumberChange::Absorbed { absorbed_user_id: other.id };
            }
            Numbers.change_bsuid_in(conn, &user.id, new_bsuid).await?;
        }
        Ok(outcome)
    }

    /// One person, two accounts: `user` holds their number, `also` their business-scoped id (made
    /// while WhatsApp hid the number). The one that holds nothing but conversation joins the other;
    /// when both hold more (a plan, a subscription), both stay and the pair is listed for an admin, and
    /// `user` answers. Returns the account that answers now.
    pub(in crate::conversation) async fn join(
        &self,
        conn: &mut Tx,
        user: User,
        also: User,
    ) -> Result<User, AppError> {
        let bsuid = also.bsuid.clone();
        let (keep, gone) = if !self.holds_more_than_conversation(conn, &also).await? {
            (user, also)
        } else if !self.holds_more_than_conversation(conn, &user).await? {
            (also, user)
        } else {
            let key = bsuid.as_ref().map(|b| b.as_str().to_owned()).unwrap_or_default();
            Numbers.record_conflict_in(conn, &also.id, &user.id, &key).await?;
            tracing::warn!(user = %user.id, other = %also.id, "one person's number and business-scoped id name two accounts that both hold a plan or subscription: an admin decides");
            return Ok(user);
        };
        self.absorb(conn, &gone.id, &keep.id).await?;
        if let Some(phone) = gone.phone.as_ref().filter(|_| keep.phone.is_none()) {
            Numbers.change_number_in(conn, &keep, phone).await?;
        }
        if let Some(bsuid) = &bsuid {
            Numbers.change_bsuid_in(conn, &keep.id, bsuid).await?;
        }
        tracing::info!(user = %keep.id, absorbed = %gone.id, "one person's number and business-scoped id were two accounts: joined");
        self.users.find_in(conn, &keep.id).await?.ok_or(AppError::from(sqlx::Error::RowNotFound))
    }

    async fn holds_more_than_conversation(
        &self,
        conn: &mut AnyConnection,
        user: &User,
    ) -> Result<bool, AppError> {
        Ok(user.tier == Tier::Pro
            || user.role == Role::Admin
            || self.plans.exists_in(conn, &user.id).await?
            || self.subscriptions.holds_open_in(conn, &user.id).await?)
    }

    /// Hands what `from` holds (its conversation, past checkouts, notices) to `into`, then removes it.
    async fn absorb(&self, conn: &mut Tx, from: &str, into: &str) -> Result<(), AppError> {
        for rows in [crate::billing::PERSONAL, super::PERSONAL] {
            personal::hand_over(conn, rows, from, into).await?;
        }
        Numbers.remove_absorbed_in(conn, from).await
    }
}
