//! Users: created on first contact over WhatsApp, identified by phone number, with a tier
//! (free or pro), a role and a language.

use sqlx::{AnyConnection, Row, any::AnyRow};

use super::{changes, phone::PhoneNumber};
use crate::{
    db::{Tx, now_ms},
    locale::Language,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Free,
    Pro,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Free => "free",
            Tier::Pro => "pro",
        }
    }
    fn parse(value: &str) -> Self {
        if value == "pro" { Tier::Pro } else { Tier::Free }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    User,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Admin => "admin",
        }
    }
    fn parse(value: &str) -> Self {
        if value == "admin" { Role::Admin } else { Role::User }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub phone: PhoneNumber,
    pub name: String,
    pub language: Language,
    pub tier: Tier,
    pub role: Role,
    pub created_at: i64,
    pub last_active_at: Option<i64>,
}

impl User {
    /// The name to greet with: the first word of the profile name.
    pub fn first_name(&self) -> Option<&str> {
        self.name.split_whitespace().next()
    }
}

const COLUMNS: &str =
    "id, phone_number, name, language, subscription_status, role, created_at, last_active_at";

fn from_row(row: &AnyRow) -> Result<User, sqlx::Error> {
    let phone: String = row.try_get("phone_number")?;
    let language: String = row.try_get("language")?;
    Ok(User {
        id: row.try_get("id")?,
        phone: PhoneNumber::parse(&phone).map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
        name: row.try_get("name")?,
        language: Language::parse(&language).unwrap_or_default(),
        tier: Tier::parse(&row.try_get::<String, _>("subscription_status")?),
        role: Role::parse(&row.try_get::<String, _>("role")?),
        created_at: row.try_get("created_at")?,
        last_active_at: row.try_get("last_active_at")?,
    })
}

/// How a number reached us: as WhatsApp delivered it (a `wa_id`, where messages must go), or typed
/// by someone (`ADMIN_PHONES`, `socio admin promote`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    Delivered,
    Typed,
}

/// The user with this number (either spelling of a Brazilian mobile), created if this is their
/// first contact. True when created now. A number WhatsApp delivered replaces a typed spelling, so
/// messages go where WhatsApp knows the person.
pub async fn register_contact(
    conn: &mut Tx,
    phone: &PhoneNumber,
    spelling: Spelling,
    profile_name: &str,
    language: Language,
) -> Result<(User, bool), sqlx::Error> {
    let now = now_ms();
    let name: String = profile_name.trim().chars().take(120).collect();
    // No conflict target: a concurrent first contact can collide on phone_number as well as on
    // phone_key (both unique), and either means "already registered".
    let created = sqlx::query(
        "insert into users (id, phone_number, phone_key, name, language, subscription_status, role, created_at, updated_at, search_key) \
         values ($1, $2, $3, $4, $5, 'free', 'user', $6, $6, $7) on conflict do nothing returning id",
    )
    .bind(uuid::Uuid::new_v4().to_string())
    .bind(phone.e164())
    .bind(phone.identity().e164())
    .bind(&name)
    .bind(language.tag())
    .bind(now)
    .bind(super::search::search_key(&name, phone))
    .fetch_optional(&mut **conn)
    .await?
    .is_some();
    let user = find_by_phone(&mut *conn, phone).await?.ok_or(sqlx::Error::RowNotFound)?;
    if created {
        return Ok((user, true));
    }
    let takes_name = user.name.is_empty() && !name.is_empty();
    let moves = spelling == Spelling::Delivered && user.phone != *phone;
    if takes_name || moves {
        // A user who had no name yet takes the one WhatsApp now tells us; a typed spelling gives
        // way to the wa_id WhatsApp delivers.
        let name = if takes_name { name } else { user.name.clone() };
        let phone = if moves { phone.clone() } else { user.phone.clone() };
        sqlx::query(
            "update users set name = $1, phone_number = $2, search_key = $3, updated_at = $4 where id = $5",
        )
        .bind(&name)
        .bind(phone.e164())
        .bind(super::search::search_key(&name, &phone))
        .bind(now)
        .bind(&user.id)
        .execute(&mut **conn)
        .await?;
        changes::user_changed(conn, &user.id).await?;
        if moves {
            tracing::info!(user = %user.id, phone = %phone.masked(), "WhatsApp delivered another spelling of a known number: messages go there now");
        }
        return Ok((User { name, phone, ..user }, false));
    }
    Ok((user, false))
}

/// The user behind a number, however it is spelt (with or without a Brazilian mobile's ninth digit).
pub async fn find_by_phone(
    conn: &mut AnyConnection,
    phone: &PhoneNumber,
) -> Result<Option<User>, sqlx::Error> {
    let sql = format!("select {COLUMNS} from users where phone_key = $1");
    let row =
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(phone.identity().e164()).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

pub async fn find_by_id(conn: &mut AnyConnection, id: &str) -> Result<Option<User>, sqlx::Error> {
    let sql = format!("select {COLUMNS} from users where id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

/// A caller's user and whether their session (refresh-token family) was ended, in one round trip:
/// every authenticated call asks this.
/// The user, with the end (ms) of their session `session_id`, when that session is theirs and stands
/// at `now`: not revoked, not run out. One query.
pub async fn find_session_user(
    conn: &mut AnyConnection,
    id: &str,
    session_id: &str,
    now: i64,
) -> Result<Option<(User, i64)>, sqlx::Error> {
    let sql = format!(
        "select {COLUMNS}, (select max(expires_at) from refresh_tokens where family_id = $2 and user_id = $1 \
         and revoked_at is null and expires_at > $3) as session_ends_at from users where id = $1"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(session_id)
        .bind(now)
        .fetch_optional(conn)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let Some(ends_at) = row.try_get::<Option<i64>, _>("session_ends_at")? else { return Ok(None) };
    Ok(Some((from_row(&row)?, ends_at)))
}

/// Records activity (a message) now.
pub async fn touch(conn: &mut AnyConnection, user_id: &str, at: i64) -> Result<(), sqlx::Error> {
    sqlx::query("update users set last_active_at = $1 where id = $2 and (last_active_at is null or last_active_at < $1)")
        .bind(at)
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Sets the tier (admin override, billing).
pub async fn set_tier(tx: &mut Tx, user_id: &str, tier: Tier) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("update users set subscription_status = $1, updated_at = $2 where id = $3")
        .bind(tier.as_str())
        .bind(now_ms())
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    changes::user_changed(tx, user_id).await?;
    Ok(done.rows_affected() == 1)
}

/// The language the person is answered in (on WhatsApp and the web).
pub async fn set_language(tx: &mut Tx, user_id: &str, language: Language) -> Result<(), sqlx::Error> {
    sqlx::query("update users set language = $1, updated_at = $2 where id = $3")
        .bind(language.tag())
        .bind(now_ms())
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    changes::user_changed(tx, user_id).await
}

pub async fn record_login(conn: &mut AnyConnection, user_id: &str) -> Result<(), sqlx::Error> {
    let now = now_ms();
    sqlx::query("update users set last_login_at = $1, updated_at = $1 where id = $2")
        .bind(now)
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}
