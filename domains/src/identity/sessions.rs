//! Sessions: a short-lived access token (JWT, HS256 only, 15 minutes) and a refresh token that
//! rotates on every use (stored as a SHA-256 hash). Refresh tokens of one login form a family with
//! one absolute expiry (30 days); presenting a used token again revokes the family, since only a
//! thief would — except within a short grace after its first use (`REFRESH_REUSE_INTERVAL_S`, 10 s,
//! as GoTrue's `REFRESH_TOKEN_REUSE_INTERVAL`), when it is two tabs refreshing at once or a phone
//! that lost the answer and asks again: they get the very pair the first use got (GoTrue's rule
//! too), so nobody grows a branch of the session of their own. Logout, erasure and role changes
//! revoke families too.
//!
//! A refresh token names its family and its place in the chain under our MAC
//! ([`RefreshToken`]), so the child of a token is the same whenever it is asked for, and a used
//! token is still known for one of ours after the sweep ([`Sweep`]) deleted its row: the table
//! holds the live sessions' tokens only, and a late replay still revokes its family.

use std::time::Duration;

use base64::Engine as _;
use hmac::{Hmac, Mac};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::{AnyConnection, Row};

use super::{
    changes,
    users::{self, Role, User},
    verified::VerifiedTokens,
};
use crate::{
    clock::Clock,
    config::Secret,
    db::{
        Db, Tx,
        rate_limit::{self, Limit},
    },
    error::AppError,
};

pub const ACCESS_TTL: Duration = Duration::from_secs(15 * 60);
/// New pairs one session may be given: a tab renews every 15 minutes (the access token's life),
/// so a few tabs and lost answers stay far below (a token presented again within the reuse
/// interval makes no new pair and spends nothing); a script rotating a session in a loop
/// (thousands a second) is stopped at once.
pub const REFRESH_PER_SESSION_MINUTE: Limit = Limit { max: 10, window: Duration::from_secs(60) };
pub const REFRESH_PER_SESSION_HOUR: Limit = Limit { max: 60, window: Duration::from_secs(3_600) };
pub const REFRESH_TTL: Duration = Duration::from_secs(30 * 24 * 60 * 60);
const ISSUER: &str = "socio";
const AUDIENCE: &str = "socio-app";

#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    role: String,
    /// The refresh-token family: the session.
    sid: String,
    iss: String,
    aud: String,
    iat: i64,
    exp: i64,
}

/// What a valid access token says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessClaims {
    pub user_id: String,
    pub role: Role,
    pub session_id: String,
    /// When the token runs out (ms): never more than [`ACCESS_TTL`] after it was issued.
    pub expires_at: i64,
}

/// Signs and checks access tokens.
#[derive(Clone)]
pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    /// Issue and expiry times are read from the application's clock (not the token library's
    /// own reading of the machine's), so that they agree with every other time the server keeps.
    clock: Clock,
    /// Tokens verified already, checked again only for their times.
    verified: VerifiedTokens<Verified>,
    /// The key refresh tokens are signed with, derived from the same secret for this one use.
    refresh_key: [u8; 32],
}

/// A verified token's claims and times (seconds), to check again at each use.
#[derive(Clone)]
struct Verified {
    claims: AccessClaims,
    issued_at: i64,
    expires_at: i64,
}

impl TokenKeys {
    pub fn new(secret: &Secret, clock: Clock) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "iat", "iss", "aud", "sub"]);
        validation.leeway = 5;
        validation.validate_exp = false; // checked against our clock in `plausible_times`
        Self {
            encoding: EncodingKey::from_secret(secret.expose().as_bytes()),
            decoding: DecodingKey::from_secret(secret.expose().as_bytes()),
            validation,
            clock,
            verified: VerifiedTokens::default(),
            refresh_key: secret
                .purpose_key("socio refresh tokens v1")
                .try_into()
                .expect("HMAC-SHA256 is 32 bytes"),
        }
    }

    pub fn issue(&self, user: &User, session_id: &str) -> Result<String, AppError> {
        self.issue_at(user, session_id, self.clock.now_ms() / 1000)
    }

    /// The access token issued at `now` (Unix seconds): the same claims at the same second sign
    /// to the very same token, which is how a refresh within the reuse interval hands out the
    /// pair the first use got.
    fn issue_at(&self, user: &User, session_id: &str, now: i64) -> Result<String, AppError> {
        let claims = Claims {
            sub: user.id.clone(),
            role: user.role.as_str().into(),
            sid: session_id.into(),
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
            iat: now,
            exp: now + ACCESS_TTL.as_secs() as i64,
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| AppError::Internal(anyhow::anyhow!("signing an access token: {e}")))
    }

    /// The claims of a token signed by us with HS256, for us, and not expired; None otherwise. A
    /// token that claims to live longer than [`ACCESS_TTL`], or to be issued in the future, is
    /// refused: whoever signed it, it is not one of ours.
    pub fn verify(&self, token: &str) -> Option<AccessClaims> {
        let now = self.clock.now_ms() / 1000;
        let leeway = self.validation.leeway as i64;
        if let Some(known) = self.verified.get(token) {
            if plausible_times(known.issued_at, known.expires_at, now, leeway) {
                return Some(known.claims);
            }
            self.verified.forget(token);
            return None;
        }
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation).ok()?;
        let (iat, exp) = (data.claims.iat, data.claims.exp);
        if !plausible_times(iat, exp, now, leeway) {
            return None;
        }
        let role = match data.claims.role.as_str() {
            "admin" => Role::Admin,
            "user" => Role::User,
            _ => return None,
        };
        let claims = AccessClaims {
            user_id: data.claims.sub,
            role,
            session_id: data.claims.sid,
            expires_at: exp.checked_mul(1000)?,
        };
        self.verified.keep(token, Verified { claims: claims.clone(), issued_at: iat, expires_at: exp });
        Some(claims)
    }
}

/// Whether a token's times are ones we could have written, with checked arithmetic (a signed token
/// with `iat = i64::MIN` and `exp = i64::MAX` must not wrap into a short life): issued no later
/// than now (with the leeway), living no longer than [`ACCESS_TTL`], ending no further than that
/// from now, and not ended yet (with the leeway; the application's clock decides, not the token
/// library's reading of the machine's).
fn plausible_times(iat: i64, exp: i64, now: i64, leeway: i64) -> bool {
    let ttl = ACCESS_TTL.as_secs() as i64;
    let Some(lifetime) = exp.checked_sub(iat) else { return false };
    let latest_issue = now.saturating_add(leeway);
    let latest_end = now.saturating_add(ttl).saturating_add(leeway);
    (0..=ttl).contains(&lifetime)
        && iat <= latest_issue
        && exp <= latest_end
        && exp.saturating_add(leeway) >= now
}

/// A fresh pair.
#[derive(Clone, Debug)]
pub struct TokenPair {
    pub access: String,
    pub refresh: String,
}

/// What a refresh token of ours says: its family (the session, a UUID) and its generation (the
/// login's token is 0, each rotation's child one more). Written as base64url of the family's 16
/// bytes, the generation's 4 and HMAC-SHA256 over both (52 bytes, 70 characters): nobody without
/// the server's secret can write one, and the server can tell one of its own tokens from its text
/// alone, after its row is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RefreshToken {
    family: uuid::Uuid,
    generation: u32,
}

const REFRESH_BYTES: usize = 16 + 4 + 32;

impl RefreshToken {
    fn mac(key: &[u8; 32], body: &[u8]) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key");
        mac.update(b"refresh");
        mac.update(body);
        mac
    }

    fn write(self, key: &[u8; 32]) -> String {
        let mut bytes = Vec::with_capacity(REFRESH_BYTES);
        bytes.extend_from_slice(self.family.as_bytes());
        bytes.extend_from_slice(&self.generation.to_be_bytes());
        let tag = Self::mac(key, &bytes).finalize().into_bytes();
        bytes.extend_from_slice(&tag);
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The token's family and generation when the text is one of ours (the MAC checked in
    /// constant time); None for anything else, a login's older random token included.
    fn read(text: &str, key: &[u8; 32]) -> Option<Self> {
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(text).ok()?;
        if bytes.len() != REFRESH_BYTES {
            return None;
        }
        let (body, tag) = bytes.split_at(20);
        Self::mac(key, body).verify_slice(tag).ok()?;
        let family = uuid::Uuid::from_slice(&body[..16]).ok()?;
        let generation = u32::from_be_bytes(body[16..20].try_into().ok()?);
        Some(Self { family, generation })
    }

    fn child(self) -> Self {
        Self { family: self.family, generation: self.generation.saturating_add(1) }
    }
}

/// Before tokens named their family (2026-12), a refresh token was 32 random bytes: one of those
/// still renews its session, its row found by its hash, and its child is of the new kind.
fn is_random_token(text: &str) -> bool {
    text.len() == 43
        && base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(text).is_ok_and(|b| b.len() == 32)
}

fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

async fn insert_refresh(
    conn: &mut AnyConnection,
    keys: &TokenKeys,
    user_id: &str,
    token: RefreshToken,
    expires_at: i64,
    now: i64,
) -> Result<String, AppError> {
    let family_id = token.family.to_string();
    let token = token.write(&keys.refresh_key);
    sqlx::query(
        "insert into refresh_tokens (id, family_id, user_id, token_hash, expires_at, created_at) \
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(family_id)
    .bind(user_id)
    .bind(hash(&token))
    .bind(expires_at)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(token)
}

/// Starts a session (a new family) for a user who just proved who they are.
pub(in crate::identity) async fn start(
    db: &Db,
    keys: &TokenKeys,
    user: &User,
) -> Result<TokenPair, AppError> {
    let token = RefreshToken { family: uuid::Uuid::new_v4(), generation: 0 };
    let mut conn = db.pool().acquire().await?;
    let now = db.now_ms();
    let refresh =
        insert_refresh(&mut conn, keys, &user.id, token, now + REFRESH_TTL.as_millis() as i64, now).await?;
    Ok(TokenPair { access: keys.issue(user, &token.family.to_string())?, refresh })
}

/// The session a refresh token claims to be of, read from its text when it is one of ours (no
/// database), or from its row for a login's older random token. None: not a token of ours.
pub(in crate::identity) async fn family_of(
    db: &Db,
    keys: &TokenKeys,
    refresh: &str,
) -> Result<Option<String>, AppError> {
    if let Some(token) = RefreshToken::read(refresh, &keys.refresh_key) {
        return Ok(Some(token.family.to_string()));
    }
    if !is_random_token(refresh) {
        return Ok(None);
    }
    let row = sqlx::query("select family_id from refresh_tokens where token_hash = $1")
        .bind(hash(refresh))
        .fetch_optional(db.pool())
        .await?;
    Ok(row.map(|r| r.try_get("family_id")).transpose()?)
}

/// Trades a refresh token for its child pair in the same family. A token used before revokes its
/// family, unless it was first used at most `reuse_interval` ago: then it gets the very pair its
/// first use got (its child's refresh token, and the access token issued at the same second).
pub(in crate::identity) async fn rotate(
    db: &Db,
    keys: &TokenKeys,
    refresh: &str,
    reuse_interval: Duration,
) -> Result<TokenPair, AppError> {
    let named = RefreshToken::read(refresh, &keys.refresh_key);
    if named.is_none() && !is_random_token(refresh) {
        return Err(AppError::Unauthenticated);
    }
    let mut tx = db.begin().await?;
    let row = sqlx::query(
        "select id, family_id, user_id, expires_at, revoked_at from refresh_tokens where token_hash = $1",
    )
    .bind(hash(refresh))
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else {
        drop(tx);
        // One of ours whose row is gone: the sweep deletes a token once it was used (and the
        // reuse interval passed) or ran out, so this is a late replay of a used token.
        if let Some(token) = named {
            replayed(db, &token.family.to_string(), None).await?;
        }
        return Err(AppError::Unauthenticated);
    };
    let (id, family_id, user_id): (String, String, String) =
        (row.try_get("id")?, row.try_get("family_id")?, row.try_get("user_id")?);
    let revoked_at: Option<i64> = row.try_get("revoked_at")?;
    let expires_at: i64 = row.try_get("expires_at")?;
    let now = db.now_ms();
    if revoked_at.is_some() || expires_at < now {
        return Err(AppError::Unauthenticated);
    }
    let Ok(family) = uuid::Uuid::parse_str(&family_id) else { return Err(AppError::Unauthenticated) };
    let child = RefreshToken { family, generation: named.map_or(0, |t| t.generation) }.child();
    // One conditional update claims the token; of two at once, the other waits for it (a row
    // lock, or SQLite's one writer) and then reads when it was used — and the child the first
    // one wrote, committed with the claim.
    let claimed = sqlx::query("update refresh_tokens set used_at = $1 where id = $2 and used_at is null")
        .bind(now)
        .bind(&id)
        .execute(&mut *tx)
        .await?
        .rows_affected()
        == 1;
    let Some(user) = users::find_by_id(&mut tx, &user_id).await? else {
        return Err(AppError::Unauthenticated);
    };
    if claimed {
        // The session's budget, in the claim's transaction: past it the claim rolls back and the
        // token stays unused.
        let minute = format!("refresh:minute:session:{family_id}");
        rate_limit::per_key_in(&mut tx, &minute, REFRESH_PER_SESSION_MINUTE).await?;
        let hour = format!("refresh:hour:session:{family_id}");
        rate_limit::per_key_in(&mut tx, &hour, REFRESH_PER_SESSION_HOUR).await?;
        let refresh = insert_refresh(&mut tx, keys, &user.id, child, expires_at, now).await?;
        tx.commit().await?;
        return Ok(TokenPair { access: keys.issue_at(&user, &family_id, now / 1000)?, refresh });
    }
    let used_at: Option<i64> = sqlx::query_scalar("select used_at from refresh_tokens where id = $1")
        .bind(&id)
        .fetch_one(&mut *tx)
        .await?;
    let within = used_at.is_some_and(|used| now.saturating_sub(used) <= reuse_interval.as_millis() as i64);
    let refresh = child.write(&keys.refresh_key);
    let child_issued_at: Option<i64> =
        sqlx::query_scalar("select created_at from refresh_tokens where token_hash = $1 and family_id = $2")
            .bind(hash(&refresh))
            .bind(&family_id)
            .fetch_optional(&mut *tx)
            .await?;
    drop(tx);
    match child_issued_at {
        Some(issued_at) if within => {
            tracing::info!(target: "security", event = "refresh_reuse_within_interval", user = %user_id);
            Ok(TokenPair { access: keys.issue_at(&user, &family_id, issued_at / 1000)?, refresh })
        }
        _ => {
            replayed(db, &family_id, Some(&user_id)).await?;
            Err(AppError::Unauthenticated)
        }
    }
}

/// A used refresh token presented again past its reuse interval: only a thief (or the owner after
/// a thief) would, so the whole session ends, logged as a security event.
async fn replayed(db: &Db, family_id: &str, user_id: Option<&str>) -> Result<(), AppError> {
    let ended = revoke_family(db, family_id).await?;
    if ended {
        tracing::warn!(target: "security", event = "refresh_reuse", session = %family_id, user = user_id.unwrap_or("-"), "a used refresh token was presented again; its session is revoked");
    }
    Ok(())
}

/// How often the server sweeps the refresh tokens ([`Sweep`]).
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// Deletes the refresh tokens no session needs any more: used ones once the reuse interval after
/// their use has passed, those of ended sessions after the same grace, and those run out — so the
/// table holds about one row per live session. A deleted token presented again is still known
/// for ours by its MAC and revokes its family ([`rotate`]).
#[derive(Clone)]
pub struct Sweep {
    db: Db,
    reuse_interval: Duration,
}

impl Sweep {
    pub fn new(db: Db, reuse_interval: Duration) -> Self {
        Self { db, reuse_interval }
    }

    /// One sweep; how many tokens went.
    pub async fn once(&self) -> Result<u64, AppError> {
        let now = self.db.now_ms();
        let settled = now - self.reuse_interval.as_millis() as i64;
        let deleted = sqlx::query(
            "delete from refresh_tokens where used_at < $1 or revoked_at < $1 or expires_at < $2",
        )
        .bind(settled)
        .bind(now)
        .execute(&mut *self.db.writer().await?)
        .await?
        .rows_affected();
        Ok(deleted)
    }

    /// Sweeps every `every` until `stop` (the job workers' upkeep).
    pub async fn keep_on(self, every: Duration, mut stop: tokio::sync::watch::Receiver<bool>) {
        while !*stop.borrow() {
            match self.once().await {
                Ok(0) => {}
                Ok(deleted) => tracing::debug!(deleted, "refresh tokens swept"),
                Err(err) => tracing::warn!(error = %err, "could not sweep the refresh tokens"),
            }
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                _ = stop.changed() => break,
            }
        }
    }
}

/// Revokes the session's tokens; whether any still stood.
pub(in crate::identity) async fn revoke_family(db: &Db, family_id: &str) -> Result<bool, AppError> {
    let revoked =
        sqlx::query("update refresh_tokens set revoked_at = $1 where family_id = $2 and revoked_at is null")
            .bind(db.now_ms())
            .bind(family_id)
            .execute(&mut *db.writer().await?)
            .await?
            .rows_affected();
    changes::session_ended(db, family_id).await?;
    Ok(revoked > 0)
}

/// Ends every session of a user (role change, erasure).
pub(in crate::identity) async fn revoke_user(tx: &mut Tx, user_id: &str) -> Result<(), AppError> {
    sqlx::query("update refresh_tokens set revoked_at = $1 where user_id = $2 and revoked_at is null")
        .bind(tx.now_ms())
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    changes::user_changed(tx, user_id).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{identity::phone::PhoneNumber, locale::Language};

    fn keys() -> TokenKeys {
        TokenKeys::new(&Secret::new("k".repeat(40)), Clock::system())
    }

    fn admin() -> User {
        User {
            id: "u-1".into(),
            phone: Some(PhoneNumber::parse("+5511987654321").unwrap()),
            bsuid: None,
            username: None,
            name: "Ana".into(),
            language: Language::PtBr,
            tier: users::Tier::Pro,
            role: Role::Admin,
            created_at: 0,
            last_active_at: None,
        }
    }

    fn forge(header: &str, claims: serde_json::Value, key: &[u8]) -> String {
        let b64 = |v: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v);
        let signing_input = format!("{}.{}", b64(header.as_bytes()), b64(claims.to_string().as_bytes()));
        let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
        mac.update(signing_input.as_bytes());
        format!("{signing_input}.{}", b64(&mac.finalize().into_bytes()))
    }

    fn claims(exp_offset: i64, aud: &str) -> serde_json::Value {
        let now = Clock::system().now_ms() / 1000;
        serde_json::json!({"sub": "u-1", "role": "admin", "sid": "s", "iss": "socio", "aud": aud, "iat": now, "exp": now + exp_offset})
    }

    /// An admin's claims issued at `iat`, expiring at `exp` (Unix seconds).
    fn with(iat: i64, exp: i64) -> serde_json::Value {
        serde_json::json!({"sub": "u-1", "role": "admin", "sid": "s", "iss": "socio", "aud": AUDIENCE, "iat": iat, "exp": exp})
    }

    #[test]
    fn an_issued_token_verifies_with_its_user_role_and_session() {
        let token = keys().issue(&admin(), "family-1").unwrap();
        let claims = keys().verify(&token).unwrap();
        assert_eq!(
            (claims.user_id.as_str(), claims.role, claims.session_id.as_str()),
            ("u-1", Role::Admin, "family-1")
        );
        let lifetime = claims.expires_at - Clock::system().now_ms();
        assert!(lifetime > 890_000 && lifetime <= 900_000, "{lifetime}");
    }

    #[test]
    fn a_token_claiming_a_longer_life_than_fifteen_minutes_or_a_future_issue_is_refused() {
        let key = "k".repeat(40).into_bytes();
        let header = r#"{"alg":"HS256","typ":"JWT"}"#;
        let now = Clock::system().now_ms() / 1000;
        assert!(keys().verify(&forge(header, with(now, now + 900), &key)).is_some());
        assert!(keys().verify(&forge(header, with(now, now + 901), &key)).is_none(), "sixteen minutes");
        assert!(keys().verify(&forge(header, with(now, now + 365 * 86_400), &key)).is_none(), "a year");
        assert!(keys().verify(&forge(header, with(now + 600, now + 900), &key)).is_none(), "issued later");
        let no_iat = serde_json::json!({"sub": "u-1", "role": "admin", "sid": "s", "iss": "socio", "aud": AUDIENCE, "exp": now + 60});
        assert!(keys().verify(&forge(header, no_iat, &key)).is_none(), "no issue time");
    }

    #[test]
    fn tokens_with_extreme_times_are_refused_without_overflowing() {
        let key = "k".repeat(40).into_bytes();
        let header = r#"{"alg":"HS256","typ":"JWT"}"#;
        let now = Clock::system().now_ms() / 1000;
        for (iat, exp) in [
            (i64::MIN, i64::MAX),
            (i64::MIN, now + 60),
            (now, i64::MAX),
            (i64::MAX, i64::MAX),
            (i64::MAX - 10, i64::MAX),
            (now - 600, now + 600),
            (now + 60, now + 120),
            (now + 10, now + 5),
        ] {
            assert!(keys().verify(&forge(header, with(iat, exp), &key)).is_none(), "iat {iat}, exp {exp}");
        }
        assert!(!plausible_times(i64::MIN, i64::MAX, now, 5));
        assert!(plausible_times(now, now + 900, now, 5));
    }

    #[test]
    fn tokens_with_alg_none_are_refused() {
        let b64 = |v: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v);
        let token = format!(
            "{}.{}.",
            b64(br#"{"alg":"none","typ":"JWT"}"#),
            b64(claims(600, AUDIENCE).to_string().as_bytes())
        );
        assert!(keys().verify(&token).is_none());
    }

    #[test]
    fn tokens_with_another_algorithm_are_refused() {
        let token =
            forge(r#"{"alg":"HS512","typ":"JWT"}"#, claims(600, AUDIENCE), &"k".repeat(40).into_bytes());
        assert!(keys().verify(&token).is_none());
    }

    #[test]
    fn a_token_is_refused_once_the_application_s_clock_passes_its_fifteen_minutes() {
        let clock = Clock::adjustable();
        let keys = TokenKeys::new(&Secret::new("k".repeat(40)), clock.clone());
        let token = keys.issue(&admin(), "family-1").unwrap();
        clock.advance(14 * 60_000);
        assert!(keys.verify(&token).is_some(), "fourteen minutes on");
        clock.advance(2 * 60_000);
        assert!(keys.verify(&token).is_none(), "sixteen minutes on");
    }

    #[test]
    fn a_verified_token_is_kept_and_a_forgery_beside_it_is_still_refused() {
        let keys = keys();
        let token = keys.issue(&admin(), "family-1").unwrap();
        assert_eq!(keys.verify(&token).unwrap().session_id, "family-1");
        assert_eq!(keys.verified.len(), 1, "kept once verified");
        assert_eq!(keys.verify(&token).unwrap().session_id, "family-1", "and answered from there");
        // The same claims under another signature, and the token with its signature cut short.
        let (signed, _) = token.rsplit_once('.').unwrap();
        assert!(keys.verify(&format!("{signed}.{}", "A".repeat(43))).is_none());
        assert!(keys.verify(&token[..token.len() - 1]).is_none());
        assert!(
            keys.verify(&forge(r#"{"alg":"HS256","typ":"JWT"}"#, claims(600, AUDIENCE), b"another-key"))
                .is_none()
        );
        assert_eq!(keys.verified.len(), 1, "a refused token is never kept");
    }

    #[test]
    fn the_verified_tokens_kept_never_pass_their_capacity() {
        let keys = keys();
        let key = "k".repeat(40).into_bytes();
        let header = r#"{"alg":"HS256","typ":"JWT"}"#;
        let now = Clock::system().now_ms() / 1000;
        for n in 0..=super::super::verified::CAPACITY {
            let claims = serde_json::json!({"sub": "u-1", "role": "user", "sid": format!("s-{n}"), "iss": "socio", "aud": AUDIENCE, "iat": now, "exp": now + 600});
            assert!(keys.verify(&forge(header, claims, &key)).is_some());
        }
        assert!(keys.verified.len() <= super::super::verified::CAPACITY, "{}", keys.verified.len());
        assert!(!keys.verified.is_empty());
    }

    #[test]
    fn tokens_with_a_bad_signature_wrong_audience_or_past_expiry_are_refused() {
        let key = "k".repeat(40).into_bytes();
        let header = r#"{"alg":"HS256","typ":"JWT"}"#;
        assert!(
            keys().verify(&forge(header, claims(600, AUDIENCE), &key)).is_some(),
            "the forger itself works"
        );
        assert!(keys().verify(&forge(header, claims(600, AUDIENCE), b"another-key")).is_none());
        assert!(keys().verify(&forge(header, claims(600, "someone-else"), &key)).is_none());
        assert!(keys().verify(&forge(header, claims(-60, AUDIENCE), &key)).is_none());
    }

    #[test]
    fn a_refresh_token_names_its_session_and_generation_under_a_mac_and_is_stored_hashed() {
        let keys = keys();
        let token = RefreshToken { family: uuid::Uuid::new_v4(), generation: 7 };
        let text = token.write(&keys.refresh_key);
        assert_eq!(text.len(), 70);
        assert_eq!(RefreshToken::read(&text, &keys.refresh_key), Some(token));
        assert_eq!(
            token.child().write(&keys.refresh_key),
            token.child().write(&keys.refresh_key),
            "one child"
        );
        assert_ne!(token.child().write(&keys.refresh_key), text);
        assert_eq!(hash(&text).len(), 64);
        assert_ne!(hash(&text), text);
    }

    #[test]
    fn a_refresh_token_with_a_changed_byte_or_under_another_secret_is_not_ours() {
        let keys = keys();
        let text = RefreshToken { family: uuid::Uuid::new_v4(), generation: 0 }.write(&keys.refresh_key);
        let mut bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(&text).unwrap();
        for at in [0, 17, 19, 51] {
            bytes[at] ^= 1;
            let forged = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes);
            assert_eq!(RefreshToken::read(&forged, &keys.refresh_key), None, "byte {at} changed");
            bytes[at] ^= 1;
        }
        let other = TokenKeys::new(&Secret::new("o".repeat(40)), Clock::system());
        assert_eq!(RefreshToken::read(&text, &other.refresh_key), None);
        assert_eq!(RefreshToken::read("", &keys.refresh_key), None);
        assert_eq!(RefreshToken::read(&text[..69], &keys.refresh_key), None);
    }
}
