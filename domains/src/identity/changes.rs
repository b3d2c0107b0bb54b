//! Announcing who-is-who changes: a user's row changed (tier, role, language, number, erasure) or a
//! session ended (logout, revocation). Announced in the writer's transaction and heard at its
//! commit by every server process (`db::Notice`), so per-process caches of live sessions forget
//! what they held and open streams check whether their session still stands.

use crate::error::AppError;
use tokio::sync::broadcast::{Receiver, error::TryRecvError};

use crate::db::{Db, Notice, Tx};

/// The notice channel (also the PostgreSQL NOTIFY channel).
pub const CHANNEL: &str = "socio_auth";

/// What a notice on [`CHANNEL`] says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Something about the user changed, their sessions perhaps included.
    User(String),
    /// The session (refresh-token family) ended.
    Session(String),
    /// A new user was registered: nothing anyone cached about them, only counts, can be stale.
    Joined(String),
}

impl Change {
    fn payload(&self) -> String {
        match self {
            Change::User(id) => format!("user {id}"),
            Change::Session(id) => format!("session {id}"),
            Change::Joined(id) => format!("joined {id}"),
        }
    }

    /// The change a payload on [`CHANNEL`] names; None for anything else.
    pub fn parse(payload: &str) -> Option<Self> {
        match payload.split_once(' ')? {
            ("user", id) if !id.is_empty() => Some(Change::User(id.to_owned())),
            ("session", id) if !id.is_empty() => Some(Change::Session(id.to_owned())),
            ("joined", id) if !id.is_empty() => Some(Change::Joined(id.to_owned())),
            _ => None,
        }
    }

    /// Whether it may concern a caller: theirs, or their session's.
    pub fn concerns(&self, user_id: &str, session_id: &str) -> bool {
        match self {
            Change::User(id) => id == user_id,
            Change::Session(id) => id == session_id,
            Change::Joined(_) => false,
        }
    }
}

/// What a per-process cache learns from the notices heard since it last looked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::identity) enum Heard {
    Change(Change),
    /// Notices were lost (the receiver fell behind): anything cached may be stale.
    Missed,
}

/// The identity changes `notices` holds now, without waiting: other channels' notices and
/// unreadable payloads are skipped. The caches of live sessions and of the users' totals read them.
pub(in crate::identity) fn heard(notices: &mut Receiver<Notice>) -> impl Iterator<Item = Heard> + '_ {
    std::iter::from_fn(move || {
        loop {
            match notices.try_recv() {
                Ok(notice) if notice.channel == CHANNEL => {
                    if let Some(change) = Change::parse(&notice.payload) {
                        return Some(Heard::Change(change));
                    }
                }
                Ok(_) => {}
                Err(TryRecvError::Lagged(_)) => return Some(Heard::Missed),
                Err(TryRecvError::Empty | TryRecvError::Closed) => return None,
            }
        }
    })
}

/// The user's row or sessions changed in this transaction.
pub(in crate::identity) async fn user_changed(tx: &mut Tx, user_id: &str) -> Result<(), AppError> {
    Ok(tx.announce(CHANNEL, Change::User(user_id.to_owned()).payload()).await?)
}

/// A user was registered in this transaction.
pub(in crate::identity) async fn user_joined(tx: &mut Tx, user_id: &str) -> Result<(), AppError> {
    Ok(tx.announce(CHANNEL, Change::Joined(user_id.to_owned()).payload()).await?)
}

/// A session ended by a statement already committed.
pub(in crate::identity) async fn session_ended(db: &Db, session_id: &str) -> Result<(), AppError> {
    Ok(db.announce(CHANNEL, Change::Session(session_id.to_owned()).payload()).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_reads_back_from_its_payload_and_nothing_else_does() {
        for change in
            [Change::User("u-1".into()), Change::Session("s-1".into()), Change::Joined("u-2".into())]
        {
            assert_eq!(Change::parse(&change.payload()), Some(change));
        }
        assert_eq!(Change::parse("user "), None);
        assert_eq!(Change::parse("plan u-1"), None);
        assert_eq!(Change::parse(""), None);
    }

    #[test]
    fn a_cache_hears_identity_changes_only_and_learns_when_it_fell_behind() {
        let (sender, mut notices) = tokio::sync::broadcast::channel(2);
        let notice = |channel, payload: &str| Notice { channel, payload: payload.to_owned() };
        sender.send(notice("socio_conversation", "user u-1")).unwrap();
        sender.send(notice(CHANNEL, "joined u-2")).unwrap();
        assert_eq!(heard(&mut notices).collect::<Vec<_>>(), [Heard::Change(Change::Joined("u-2".into()))]);
        // Three notices into room for two: the oldest is lost, and the cache is told.
        for payload in ["user u-1", "nonsense", "session s-1"] {
            sender.send(notice(CHANNEL, payload)).unwrap();
        }
        assert_eq!(
            heard(&mut notices).collect::<Vec<_>>(),
            [Heard::Missed, Heard::Change(Change::Session("s-1".into()))]
        );
    }
}
