//! Users: created on first contact over WhatsApp, identified by what WhatsApp shows of them — a
//! phone number, a business-scoped user id (BSUID), or both (`contact`) — with a tier (free or
//! pro), a role and a language.

use sqlx::{AnyConnection, Row, any::AnyRow};

use super::{
    changes,
    contact::{Bsuid, Contact},
    phone::PhoneNumber,
};
use crate::{
    db::{Db, Tx},
    error::AppError,
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
    /// None for a person WhatsApp shows only by username and BSUID.
    pub phone: Option<PhoneNumber>,
    pub bsuid: Option<Bsuid>,
    /// `@ana.doces`, when they adopted a WhatsApp username.
    pub username: Option<String>,
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

    /// Where WhatsApp messages reach them: the number's digits (`to`), else the BSUID
    /// (`recipient`), as Meta's send API takes them.
    pub fn whatsapp_address(&self) -> Option<&str> {
        self.phone.as_ref().map(PhoneNumber::digits).or(self.bsuid.as_ref().map(Bsuid::as_str))
    }

    /// How people and admins tell them apart: the number, else the username, else the BSUID.
    pub fn handle(&self) -> String {
        match (&self.phone, &self.username, &self.bsuid) {
            (Some(phone), _, _) => phone.e164().to_owned(),
            (None, Some(username), _) => username.clone(),
            (None, None, Some(bsuid)) => bsuid.as_str().to_owned(),
            (None, None, None) => String::new(),
        }
    }

    /// The number as E.164, or empty when WhatsApp does not show it (the contracts' form).
    pub fn phone_e164(&self) -> String {
        self.phone.as_ref().map(|p| p.e164().to_owned()).unwrap_or_default()
    }
}

const COLUMNS: &str = "id, phone_number, bsuid, username, name, language, subscription_status, role, created_at, last_active_at";

fn from_row(row: &AnyRow) -> Result<User, AppError> {
    let phone: Option<String> = row.try_get("phone_number")?;
    let language: String = row.try_get("language")?;
    Ok(User {
        id: row.try_get("id")?,
        phone: phone
            .map(|p| PhoneNumber::parse(&p).map_err(|e| sqlx::Error::Decode(Box::new(e))))
            .transpose()?,
        bsuid: row.try_get::<Option<String>, _>("bsuid")?.as_deref().and_then(Bsuid::parse),
        username: row.try_get("username")?,
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

/// The person a delivery names, created if this is their first contact: found by their BSUID or
/// by their number (either spelling of a Brazilian mobile), and given what the account did not
/// know yet — a number, a BSUID, a username, a name. A number WhatsApp delivered replaces a typed
/// spelling, so messages go where WhatsApp knows the person.
///
/// When the BSUID and the number name two different accounts (one made while WhatsApp hid the
/// number), the number's account is returned as `user` and the other as `also`, untouched: joining
/// them is the caller's decision (`conversation::contacts`).
pub(in crate::identity) async fn register_contact(
    conn: &mut Tx,
    contact: &Contact,
    spelling: Spelling,
    profile_name: &str,
    language: Language,
) -> Result<Registered, AppError> {
    let name: String = profile_name.trim().chars().take(120).collect();
    for _ in 0..2 {
        let by_bsuid = match &contact.bsuid {
            Some(bsuid) => find_by_bsuid(conn, bsuid).await?,
            None => None,
        };
        let by_phone = match &contact.phone {
            Some(phone) => find_by_phone(conn, phone).await?,
            None => None,
        };
        let user = match (by_phone, by_bsuid) {
            (Some(user), Some(other)) if other.id != user.id => {
                return Ok(Registered { user, created: false, also: Some(other) });
            }
            (Some(user), _) | (None, Some(user)) => user,
            (None, None) => {
                if insert(conn, contact, &name, language).await? {
                    let user = find_by_contact(conn, contact).await?.ok_or(sqlx::Error::RowNotFound)?;
                    return Ok(Registered { user, created: true, also: None });
                }
                continue; // a concurrent first contact registered them: find them again
            }
        };
        let user = learn(conn, user, contact, spelling, &name).await?;
        return Ok(Registered { user, created: false, also: None });
    }
    Err(sqlx::Error::RowNotFound.into())
}

/// What [`register_contact`] found.
#[derive(Clone, Debug)]
pub struct Registered {
    pub user: User,
    /// Registered now.
    pub created: bool,
    /// A second account the same contact names (by BSUID), for the caller to join.
    pub also: Option<User>,
}

/// A new account for `contact`; false when a concurrent first contact made it (any unique key).
async fn insert(conn: &mut Tx, contact: &Contact, name: &str, language: Language) -> Result<bool, AppError> {
    let now = conn.now_ms();
    let id = uuid::Uuid::new_v4().to_string();
    // No conflict target: a concurrent first contact can collide on phone_number, phone_key or
    // bsuid (all unique), and each means "already registered".
    let created = sqlx::query(
        "insert into users (id, phone_number, phone_key, bsuid, username, name, language, subscription_status, role, created_at, updated_at, search_key) \
         values ($1, $2, $3, $4, $5, $6, $7, 'free', 'user', $8, $8, $9) on conflict do nothing returning id",
    )
    .bind(&id)
    .bind(contact.phone.as_ref().map(PhoneNumber::e164))
    .bind(contact.phone.as_ref().map(|p| p.identity().e164().to_owned()))
    .bind(contact.bsuid.as_ref().map(Bsuid::as_str))
    .bind(contact.username.as_deref())
    .bind(name)
    .bind(language.tag())
    .bind(now)
    .bind(super::search::search_key(name, contact.phone.as_ref(), contact.username.as_deref()))
    .fetch_optional(&mut **conn)
    .await?
    .is_some();
    if created {
        super::changes::user_joined(conn, &id).await?;
    }
    Ok(created)
}

/// The account takes what this contact tells about it that it did not know (or that changed):
/// a number, a delivered spelling of it, a BSUID, a username, a first name.
async fn learn(
    conn: &mut Tx,
    user: User,
    contact: &Contact,
    spelling: Spelling,
    name: &str,
) -> Result<User, AppError> {
    let phone = match (&user.phone, &contact.phone) {
        (None, Some(new)) => Some(new.clone()),
        (Some(old), Some(new)) if spelling == Spelling::Delivered && old != new && old.same_person(new) => {
            tracing::info!(user = %user.id, phone = %new.masked(), "WhatsApp delivered another spelling of a known number: messages go there now");
            Some(new.clone())
        }
        (old, _) => old.clone(),
    };
    let bsuid = contact.bsuid.clone().or(user.bsuid.clone());
    let username = contact.username.clone().or(user.username.clone());
    let name = if user.name.is_empty() && !name.is_empty() { name.to_owned() } else { user.name.clone() };
    if phone == user.phone && bsuid == user.bsuid && username == user.username && name == user.name {
        return Ok(user);
    }
    sqlx::query(
        "update users set name = $1, phone_number = $2, phone_key = $3, bsuid = $4, username = $5, search_key = $6, updated_at = $7 where id = $8",
    )
    .bind(&name)
    .bind(phone.as_ref().map(PhoneNumber::e164))
    .bind(phone.as_ref().map(|p| p.identity().e164().to_owned()))
    .bind(bsuid.as_ref().map(Bsuid::as_str))
    .bind(username.as_deref())
    .bind(super::search::search_key(&name, phone.as_ref(), username.as_deref()))
    .bind(conn.now_ms())
    .bind(&user.id)
    .execute(&mut **conn)
    .await?;
    changes::user_changed(conn, &user.id).await?;
    Ok(User { name, phone, bsuid, username, ..user })
}

/// The account a contact names: by BSUID first, then by number.
pub(in crate::identity) async fn find_by_contact(
    conn: &mut AnyConnection,
    contact: &Contact,
) -> Result<Option<User>, AppError> {
    if let Some(bsuid) = &contact.bsuid
        && let Some(user) = find_by_bsuid(&mut *conn, bsuid).await?
    {
        return Ok(Some(user));
    }
    match &contact.phone {
        Some(phone) => find_by_phone(conn, phone).await,
        None => Ok(None),
    }
}

/// The user WhatsApp knows by this business-scoped id.
pub(in crate::identity) async fn find_by_bsuid(
    conn: &mut AnyConnection,
    bsuid: &Bsuid,
) -> Result<Option<User>, AppError> {
    let sql = format!("select {COLUMNS} from users where bsuid = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(bsuid.as_str()).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

/// The user behind a number, however it is spelt (with or without a Brazilian mobile's ninth digit).
pub(in crate::identity) async fn find_by_phone(
    conn: &mut AnyConnection,
    phone: &PhoneNumber,
) -> Result<Option<User>, AppError> {
    let sql = format!("select {COLUMNS} from users where phone_key = $1");
    let row =
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(phone.identity().e164()).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

pub(in crate::identity) async fn find_by_id(
    conn: &mut AnyConnection,
    id: &str,
) -> Result<Option<User>, AppError> {
    let sql = format!("select {COLUMNS} from users where id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

/// A caller's user and whether their session (refresh-token family) was ended, in one round trip:
/// every authenticated call asks this.
/// The user, with the end (ms) of their session `session_id`, when that session is theirs and stands
/// at `now`: not revoked, not run out. One query.
pub(in crate::identity) async fn find_session_user(
    conn: &mut AnyConnection,
    id: &str,
    session_id: &str,
    now: i64,
) -> Result<Option<(User, i64)>, AppError> {
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
pub(in crate::identity) async fn touch(
    conn: &mut AnyConnection,
    user_id: &str,
    at: i64,
) -> Result<(), AppError> {
    sqlx::query("update users set last_active_at = $1 where id = $2 and (last_active_at is null or last_active_at < $1)")
        .bind(at)
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Sets the tier (admin override, billing).
pub(in crate::identity) async fn set_tier(tx: &mut Tx, user_id: &str, tier: Tier) -> Result<bool, AppError> {
    let done = sqlx::query("update users set subscription_status = $1, updated_at = $2 where id = $3")
        .bind(tier.as_str())
        .bind(tx.now_ms())
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    changes::user_changed(tx, user_id).await?;
    Ok(done.rows_affected() == 1)
}

/// The language the person is answered in (on WhatsApp and the web).
pub(in crate::identity) async fn set_language(
    tx: &mut Tx,
    user_id: &str,
    language: Language,
) -> Result<(), AppError> {
    sqlx::query("update users set language = $1, updated_at = $2 where id = $3")
        .bind(language.tag())
        .bind(tx.now_ms())
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    changes::user_changed(tx, user_id).await
}

pub(in crate::identity) async fn record_login(
    conn: &mut AnyConnection,
    user_id: &str,
    now: i64,
) -> Result<(), AppError> {
    sqlx::query("update users set last_login_at = $1, updated_at = $1 where id = $2")
        .bind(now)
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Users as a service: the one way into people's accounts from outside identity. A read on its own
/// takes a reader of the `Db`; a step another domain composes into its own transaction (the inbox
/// registering a sender, billing setting a tier, a number change) takes that transaction.
#[derive(Clone)]
pub struct Users {
    db: Db,
}

impl Users {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The user with this id, when there is one.
    pub async fn find(&self, id: &str) -> Result<Option<User>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        find_by_id(&mut conn, id).await
    }

    /// The user behind a number, however it is spelt.
    pub async fn find_by_phone(&self, phone: &PhoneNumber) -> Result<Option<User>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        find_by_phone(&mut conn, phone).await
    }

    /// Records activity (a message) at `at`.
    pub async fn touch(&self, user_id: &str, at: i64) -> Result<(), AppError> {
        let mut writer = self.db.writer().await?;
        touch(&mut writer, user_id, at).await
    }

    /// The language the person is answered in from now on, committed.
    pub async fn set_language(&self, user_id: &str, language: Language) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        set_language(&mut tx, user_id, language).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The user with this id, read inside the caller's connection or transaction.
    pub async fn find_in(&self, conn: &mut AnyConnection, id: &str) -> Result<Option<User>, AppError> {
        find_by_id(conn, id).await
    }

    /// The user behind a number, read inside the caller's transaction.
    pub async fn find_by_phone_in(
        &self,
        conn: &mut AnyConnection,
        phone: &PhoneNumber,
    ) -> Result<Option<User>, AppError> {
        find_by_phone(conn, phone).await
    }

    /// The user WhatsApp knows by this business-scoped id, read inside the caller's transaction.
    pub async fn find_by_bsuid_in(
        &self,
        conn: &mut AnyConnection,
        bsuid: &Bsuid,
    ) -> Result<Option<User>, AppError> {
        find_by_bsuid(conn, bsuid).await
    }

    /// The account a contact names (by BSUID first, then by number), inside the caller's transaction.
    pub async fn find_by_contact_in(
        &self,
        conn: &mut AnyConnection,
        contact: &Contact,
    ) -> Result<Option<User>, AppError> {
        find_by_contact(conn, contact).await
    }

    /// The person a delivery names, created on first contact, in the caller's transaction
    /// ([`register_contact`]).
    pub async fn register_in(
        &self,
        tx: &mut Tx,
        contact: &Contact,
        spelling: Spelling,
        profile_name: &str,
        language: Language,
    ) -> Result<Registered, AppError> {
        register_contact(tx, contact, spelling, profile_name, language).await
    }

    /// Records activity (a message) at `at`, in the caller's connection or transaction.
    pub async fn touch_in(&self, conn: &mut AnyConnection, user_id: &str, at: i64) -> Result<(), AppError> {
        touch(conn, user_id, at).await
    }

    /// Sets the tier (billing, the admin's override) in the caller's transaction; false when there
    /// is no such user.
    pub async fn set_tier_in(&self, tx: &mut Tx, user_id: &str, tier: Tier) -> Result<bool, AppError> {
        set_tier(tx, user_id, tier).await
    }

    /// The language the person is answered in, set in the caller's transaction.
    pub async fn set_language_in(
        &self,
        tx: &mut Tx,
        user_id: &str,
        language: Language,
    ) -> Result<(), AppError> {
        set_language(tx, user_id, language).await
    }
}
