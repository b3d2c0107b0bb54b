//! Logging in by sending a message. Typing a number and receiving a code needs a number the person
//! can type and costs an authentication template; a person who writes to us first costs nothing and
//! may have no visible number at all (a WhatsApp username).
//!
//! 1. The browser starts a login ([`MessageLogins::start`]): it keeps `login_id` (256 random bits,
//!    its secret, stored here only as a SHA-256), shows a text holding a short code, as a `wa.me`
//!    link and a QR code, and a two-digit `match_code`. The browser and system it came from (its
//!    `User-Agent`, [`Device`]) are kept for the question.
//! 2. The person sends that text from WhatsApp. The conversation asks them there whether it was
//!    them ([`sent_by`]), naming the browser, its system and the time, with three numbers to tap:
//!    the text alone logs nobody in, so nobody can be tricked into logging a stranger in by sending
//!    it. An admin is never logged in this way ([`code_only`]): the code to their number only.
//! 3. Only a tap on the number the browser shows, on that question while it is the latest message
//!    we sent them ([`answer`], checked by the conversation), confirms the login; any other number
//!    cancels it, and typed words never confirm. The browser, asking with its `login_id`
//!    ([`MessageLogins::status`]), gets the tokens exactly once.
//!
//! Everything expires 10 minutes after the start; starts are limited per client address like
//! login codes. Every step is a single conditional statement, so two servers or two tabs cannot
//! confirm or claim one login twice.

use std::time::Duration;

use rand::Rng;
use sha2::{Digest, Sha256};
use sqlx::{AnyConnection, Row};

use super::{
    device::Device,
    sessions::{self, TokenKeys, TokenPair},
    users::{self, User},
};
use crate::{
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::{AppError, Problem},
    locale::Language,
};

/// How long a login by message waits for the message and the person's answer.
pub const LOGIN_TTL_MS: i64 = 10 * 60 * 1000;
/// Every visit to the login page starts one, so a little more than codes.
const START_PER_ADDRESS: Limit = Limit { max: 60, window: Duration::from_secs(600) };
/// Letters and digits nobody confuses (no 0/O, 1/I/L).
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// A login that waits for its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Started {
    pub login_id: String,
    /// `K7P-4QX`: what the person's text carries.
    pub code: String,
    pub text: String,
    pub whatsapp_url: String,
    pub expires_at: i64,
    /// 10-99: the number the browser shows and the person taps on WhatsApp.
    pub match_code: i32,
}

/// Where a login stands, as the browser sees it.
#[derive(Clone, Debug)]
pub enum Standing {
    Waiting,
    /// Confirmed; the tokens come with the first answer that says so, never again.
    Confirmed(Option<(User, TokenPair)>),
    /// Not them, another number tapped, or an answer too late.
    Refused,
    Expired,
    /// An admin sent the text: admins log in only with a code sent to their number.
    CodeRequired,
}

#[derive(Clone)]
pub struct MessageLogins {
    db: Db,
    keys: TokenKeys,
    business_number: String,
}

impl MessageLogins {
    pub fn new(db: Db, keys: TokenKeys, business_number: &str) -> Self {
        Self { db, keys, business_number: business_number.to_owned() }
    }

    /// Starts a login for the browser `device` describes (its `User-Agent`).
    pub async fn start(
        &self,
        lang: Language,
        address: Option<&str>,
        device: &Device,
    ) -> Result<Started, AppError> {
        rate_limit::per_address(&self.db, "message_login", address, START_PER_ADDRESS).await?;
        let now = self.db.now_ms();
        let login_id = random_login_id();
        let match_code = random_match_code();
        let expires_at = now + LOGIN_TTL_MS;
        let mut conn = self.db.pool().acquire().await?;
        sqlx::query("delete from message_logins where expires_at < $1")
            .bind(now - 24 * 60 * 60 * 1000)
            .execute(&mut *conn)
            .await?;
        // A code is unique while its row lives: draw again on the rare collision.
        for _ in 0..5 {
            let code = random_code();
            let inserted = sqlx::query(
                "insert into message_logins (id, code, language, status, created_at, expires_at, match_code, device) \
                 values ($1, $2, $3, 'waiting', $4, $5, $6, $7) on conflict do nothing",
            )
            .bind(hash(&login_id))
            .bind(&code)
            .bind(lang.tag())
            .bind(now)
            .bind(expires_at)
            .bind(match_code)
            .bind(device.stored())
            .execute(&mut *conn)
            .await?;
            if inserted.rows_affected() == 1 {
                let shown = format!("{}-{}", &code[..3], &code[3..]);
                let text = say!(lang, "identity-message-login-log-me-in-to-the", shown);
                let encoded =
                    percent_encoding::utf8_percent_encode(&text, percent_encoding::NON_ALPHANUMERIC);
                let whatsapp_url = format!("https://wa.me/{}?text={encoded}", self.business_number);
                tracing::info!(target: "security", event = "message_login_started");
                return Ok(Started { login_id, code: shown, text, whatsapp_url, expires_at, match_code });
            }
        }
        Err(AppError::Unavailable("no free login code".into()))
    }

    /// Where the login stands; the tokens, once, when the person confirmed it.
    pub async fn status(&self, login_id: &str) -> Result<Standing, AppError> {
        let login_id = login_id.trim();
        if login_id.is_empty() {
            return Err(AppError::invalid("loginId", Problem::Required));
        }
        if login_id.len() > 100 {
            return Err(AppError::invalid("loginId", Problem::TooLong { max: 100 }));
        }
        let now = self.db.now_ms();
        let id = hash(login_id);
        // The hand-over is one conditional update: of two requests, one gets the tokens. Never an
        // admin's (one promoted since the confirmation included).
        let claimed = sqlx::query(
            "update message_logins set status = 'claimed' where id = $1 and status = 'confirmed' \
             and expires_at > $2 and not exists (select 1 from users u where u.id = message_logins.user_id \
             and u.role = 'admin') returning user_id",
        )
        .bind(&id)
        .bind(now)
        .fetch_optional(self.db.pool())
        .await?;
        if let Some(row) = claimed {
            let user_id: String = row.try_get("user_id")?;
            let mut conn = self.db.pool().acquire().await?;
            let user = users::find_by_id(&mut conn, &user_id).await?.ok_or(AppError::Unauthenticated)?;
            users::record_login(&mut conn, &user.id, self.db.now_ms()).await?;
            drop(conn);
            let pair = sessions::start(&self.db, &self.keys, &user).await?;
            tracing::info!(target: "security", event = "login", user = %user.id, how = "message");
            return Ok(Standing::Confirmed(Some((user, pair))));
        }
        let row = sqlx::query("select status, expires_at from message_logins where id = $1")
            .bind(&id)
            .fetch_optional(self.db.pool())
            .await?;
        let Some(row) = row else { return Err(AppError::NotFound(crate::error::Resource::Login)) };
        let (status, expires_at): (String, i64) = (row.try_get("status")?, row.try_get("expires_at")?);
        Ok(match status.as_str() {
            "claimed" => Standing::Confirmed(None),
            "refused" => Standing::Refused,
            "code_only" => Standing::CodeRequired,
            _ if expires_at <= now => Standing::Expired,
            // Confirmed, yet not claimed above: made an admin since. Never handed over.
            "confirmed" => Standing::CodeRequired,
            _ => Standing::Waiting,
        })
    }
}

/// What became of a login code someone sent us on WhatsApp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// It waits for their answer now: the browser `device` started it at `started_at` and shows
    /// `match_code`.
    Asked { code: String, started_at: i64, match_code: i32, device: Device },
    /// No waiting login has this code, or it expired: nobody is logged in.
    Unknown,
}

/// The person `user_id` sent `code`: the login waits for their answer on WhatsApp. A code is taken
/// once (by the first person who sends it).
pub(in crate::identity) async fn sent_by(
    conn: &mut AnyConnection,
    code: &str,
    user_id: &str,
    now: i64,
) -> Result<Arrival, AppError> {
    let row = sqlx::query(
        "update message_logins set status = 'asked', user_id = $1 \
         where code = $2 and status = 'waiting' and expires_at > $3 returning created_at, match_code, device",
    )
    .bind(user_id)
    .bind(code)
    .bind(now)
    .fetch_optional(conn)
    .await?;
    let Some(row) = row else { return Ok(Arrival::Unknown) };
    let device: Option<String> = row.try_get("device")?;
    Ok(Arrival::Asked {
        code: code.to_owned(),
        started_at: row.try_get("created_at")?,
        match_code: row.try_get::<Option<i32>, _>("match_code")?.unwrap_or_default(),
        device: Device::from_stored(device.as_deref().unwrap_or_default()),
    })
}

/// An admin sent the code: the login ends as `code_only` (admins log in only with a code sent to
/// their number), and the browser is told so. When the text was a waiting login's, the browser
/// `device` that started it at `started_at`.
pub(in crate::identity) async fn code_only(
    conn: &mut AnyConnection,
    code: &str,
    user_id: &str,
    now: i64,
) -> Result<Option<(i64, Device)>, AppError> {
    let row = sqlx::query(
        "update message_logins set status = 'code_only', user_id = $1, answered_at = $3 \
         where code = $2 and status = 'waiting' and expires_at > $3 returning created_at, device",
    )
    .bind(user_id)
    .bind(code)
    .bind(now)
    .fetch_optional(conn)
    .await?;
    let Some(row) = row else { return Ok(None) };
    tracing::warn!(target: "security", event = "message_login_admin_refused", user = %user_id);
    let device: Option<String> = row.try_get("device")?;
    Ok(Some((row.try_get("created_at")?, Device::from_stored(device.as_deref().unwrap_or_default()))))
}

/// Which message asked the person about the login `code` (kept to check that a tap answers the
/// latest question).
pub(in crate::identity) async fn asked_with(
    conn: &mut AnyConnection,
    code: &str,
    question_id: &str,
) -> Result<(), AppError> {
    sqlx::query("update message_logins set question_id = $1 where code = $2 and status = 'asked'")
        .bind(question_id)
        .bind(code)
        .execute(conn)
        .await?;
    Ok(())
}

/// A login that waits for this person's answer on WhatsApp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub code: String,
    /// The message that asked them.
    pub question_id: Option<String>,
    pub match_code: i32,
}

/// The login `code` (or, without one, the latest) this person was asked about and has not
/// answered, while it runs.
pub(in crate::identity) async fn pending_for(
    conn: &mut AnyConnection,
    user_id: &str,
    code: Option<&str>,
    now: i64,
) -> Result<Option<Pending>, AppError> {
    let row = sqlx::query(
        "select code, question_id, match_code from message_logins where user_id = $1 and status = 'asked' \
         and expires_at > $2 and ($3 = '' or code = $3) order by created_at desc limit 1",
    )
    .bind(user_id)
    .bind(now)
    .bind(code.unwrap_or_default())
    .fetch_optional(conn)
    .await?;
    row.map(|r| {
        Ok(Pending {
            code: r.try_get("code")?,
            question_id: r.try_get("question_id")?,
            match_code: r.try_get::<Option<i32>, _>("match_code")?.unwrap_or_default(),
        })
    })
    .transpose()
}

/// The person's answer to "was it you?": `confirmed` only when they tapped the browser's number on
/// the latest question (the conversation checks both). False when there was nothing of theirs to
/// answer (another person's code, answered before, or expired).
pub(in crate::identity) async fn answer(
    conn: &mut AnyConnection,
    code: &str,
    user_id: &str,
    confirmed: bool,
    now: i64,
) -> Result<bool, AppError> {
    let done = sqlx::query(
        "update message_logins set status = $1, answered_at = $2 \
         where code = $3 and user_id = $4 and status = 'asked' and expires_at > $2",
    )
    .bind(if confirmed { "confirmed" } else { "refused" })
    .bind(now)
    .bind(code)
    .bind(user_id)
    .execute(conn)
    .await?;
    let answered = done.rows_affected() == 1;
    if answered {
        let event = if confirmed { "message_login_confirmed" } else { "message_login_refused" };
        tracing::info!(target: "security", event, user = %user_id);
    }
    Ok(answered)
}

/// Three numbers to tap: `match_code` and two others of 10-99, in an order and with decoys drawn
/// once for the login (seeded by its code): the question asked again shows the same three, so the
/// right number is never the one common to several sets.
pub fn choices_for(code: &str, match_code: i32) -> [i32; 3] {
    use rand::SeedableRng as _;
    use sha2::Digest as _;
    let seed: [u8; 32] = sha2::Sha256::digest(format!("socio login decoys:{code}:{match_code}")).into();
    let mut rng = rand::rngs::StdRng::from_seed(seed);
    let mut numbers = vec![match_code];
    while numbers.len() < 3 {
        let other = rng.random_range(10..=99);
        if !numbers.contains(&other) {
            numbers.push(other);
        }
    }
    let first = rng.random_range(0..3);
    numbers.swap(0, first);
    [numbers[0], numbers[1], numbers[2]]
}

/// The code a message carries, when it is the text of a login by message ("… Código: K7P-4QX"):
/// a short message naming Sócio and a code of our alphabet. Upper case, without the dash.
pub fn code_in(text: &str) -> Option<String> {
    if text.chars().count() > 160 {
        return None;
    }
    let lower = text.to_lowercase();
    if !(lower.contains("sócio") || lower.contains("socio")) {
        return None;
    }
    text.split(|c: char| c.is_whitespace() || ",.;:!?()\"'".contains(c)).find_map(|word| {
        let (head, tail) = word.split_once('-')?;
        let code = format!("{head}{tail}").to_uppercase();
        let ours = head.len() == 3 && tail.len() == 3 && code.bytes().all(|b| ALPHABET.contains(&b));
        ours.then_some(code)
    })
}

/// The code's id as people read it: `K7P-4QX`.
pub fn shown(code: &str) -> String {
    if code.len() == 6 { format!("{}-{}", &code[..3], &code[3..]) } else { code.to_owned() }
}

fn random_login_id() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    hex::encode(bytes)
}

fn random_match_code() -> i32 {
    rand::rng().random_range(10..=99)
}

fn random_code() -> String {
    let mut rng = rand::rng();
    (0..6).map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char).collect()
}

fn hash(login_id: &str) -> String {
    hex::encode(Sha256::digest(login_id.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_is_read_from_the_text_we_asked_them_to_send() {
        assert_eq!(code_in("Quero entrar no site do Sócio. Código: K7P-4QX").as_deref(), Some("K7P4QX"));
        assert_eq!(code_in("Log me in to the Sócio website. Code: k7p-4qx").as_deref(), Some("K7P4QX"));
        assert_eq!(code_in("Oi, quero abrir uma padaria com o produto ABC-123"), None, "no Sócio, no code");
        assert_eq!(code_in("Sócio, o código do produto é AB0-1IL"), None, "0, 1, I and L are not ours");
        assert_eq!(
            code_in(&format!("Sócio K7P-4QX {}", "a".repeat(200))),
            None,
            "a long message is a message"
        );
    }

    #[test]
    fn login_ids_are_256_random_bits_and_codes_use_the_unambiguous_alphabet() {
        let (a, b) = (random_login_id(), random_login_id());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        let code = random_code();
        assert!(code.len() == 6 && code.bytes().all(|c| ALPHABET.contains(&c)), "{code}");
        assert_eq!(shown("K7P4QX"), "K7P-4QX");
    }

    #[test]
    fn the_three_numbers_to_tap_hold_the_browsers_once_and_two_others_of_two_digits() {
        let mut first_places = std::collections::HashSet::new();
        for n in 0..200 {
            let code = random_match_code();
            assert!((10..=99).contains(&code), "{code}");
            let numbers = choices_for(&format!("K7P{n:03}"), code);
            assert_eq!(numbers.iter().filter(|n| **n == code).count(), 1, "{numbers:?}");
            assert!(numbers.iter().all(|n| (10..=99).contains(n)), "{numbers:?}");
            assert!(numbers[0] != numbers[1] && numbers[1] != numbers[2] && numbers[0] != numbers[2]);
            first_places.insert(numbers.iter().position(|n| *n == code));
        }
        assert_eq!(first_places.len(), 3, "the browser's number is not always in one place");
    }

    #[test]
    fn a_login_s_three_numbers_are_the_same_each_time_they_are_shown() {
        for n in 0..50 {
            let code = format!("Q4X{n:03}");
            assert_eq!(choices_for(&code, 42), choices_for(&code, 42), "{code}");
        }
        let sets: std::collections::HashSet<_> =
            (0..50).map(|n| choices_for(&format!("Q4X{n:03}"), 42)).collect();
        assert!(sets.len() > 40, "other logins draw other decoys: {}", sets.len());
    }
}

/// The person's side of a login by message, for the conversation, which meets it inside the
/// inbox's transaction: the code they sent, the question that asked them, their answer. It needs
/// none of the browser's keys.
#[derive(Clone, Copy, Debug, Default)]
pub struct Replies;

impl Replies {
    /// The person sent `code` (see [`sent_by`]).
    pub async fn sent_by_in(
        &self,
        conn: &mut AnyConnection,
        code: &str,
        user_id: &str,
        now: i64,
    ) -> Result<Arrival, AppError> {
        sent_by(conn, code, user_id, now).await
    }

    /// The person sent only a code of a login that asked them before (see [`code_only`]).
    pub async fn code_only_in(
        &self,
        conn: &mut AnyConnection,
        code: &str,
        user_id: &str,
        now: i64,
    ) -> Result<Option<(i64, Device)>, AppError> {
        code_only(conn, code, user_id, now).await
    }

    /// The message that asked about `code`.
    pub async fn asked_with_in(
        &self,
        conn: &mut AnyConnection,
        code: &str,
        question_id: &str,
    ) -> Result<(), AppError> {
        asked_with(conn, code, question_id).await
    }

    /// The login this person was asked about and has not answered (see [`pending_for`]).
    pub async fn pending_for_in(
        &self,
        conn: &mut AnyConnection,
        user_id: &str,
        code: Option<&str>,
        now: i64,
    ) -> Result<Option<Pending>, AppError> {
        pending_for(conn, user_id, code, now).await
    }

    /// The person's answer to "was it you?" (see [`answer`]).
    pub async fn answer_in(
        &self,
        conn: &mut AnyConnection,
        code: &str,
        user_id: &str,
        confirmed: bool,
        now: i64,
    ) -> Result<bool, AppError> {
        answer(conn, code, user_id, confirmed, now).await
    }
}
