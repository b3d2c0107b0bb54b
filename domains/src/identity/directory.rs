//! The user directory for admins: search by name or number (accents and case ignored), filter by
//! tier, page, and the figures the admin panel shows. Also identity's part of LGPD erasure.

use sqlx::{Row, any::AnyRow};

use super::{
    changes,
    phone::PhoneNumber,
    search::{fold, search_key},
    totals::Totals,
    users::{Role, Tier},
};
use crate::db::{Db, Tx, personal};
use crate::error::AppError;

/// What a search looks for: a number typed in any form ("(31) 98765-4321") as its digits, anything
/// else folded.
fn search_needle(search: &str) -> String {
    let search = search.trim();
    let phone_like = search.chars().all(|c| c.is_ascii_digit() || " +-().".contains(c));
    let digits: String = search.chars().filter(char::is_ascii_digit).collect();
    if phone_like && digits.len() >= 4 { digits } else { fold(search) }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub id: String,
    pub name: String,
    /// Empty when WhatsApp shows them only by username.
    pub phone_number: String,
    pub username: String,
    pub language: String,
    pub tier: Tier,
    pub role: Role,
    pub total_messages: i64,
    /// None without a plan.
    pub plan_completed_steps: Option<i64>,
    pub plan_has_content: bool,
    pub created_at: i64,
    pub last_active_at: Option<i64>,
}

/// The listed columns of `users u`; `$1` is true.
const LISTED: &str = "select u.id, u.name, u.phone_number, u.username, u.language, u.subscription_status, u.role, u.created_at, u.last_active_at, \
    (select count(*) from messages m where m.user_id = u.id) as total_messages, \
    (select count(*) from business_plans p where p.user_id = u.id) as has_plan, \
    (select count(*) from plan_sections s join business_plans p on p.id = s.plan_id where p.user_id = u.id and s.completed = $1) as completed_steps, \
    (select count(*) from plan_sections s join business_plans p on p.id = s.plan_id where p.user_id = u.id and s.filled = $1) as filled_steps";

/// Most recently active first (the index `users_activity_idx`).
const ACTIVITY_ORDER: &str = "order by coalesce(u.last_active_at, u.created_at) desc, u.id";

fn listed(row: &AnyRow) -> Result<Listed, AppError> {
    let has_plan: i64 = row.try_get("has_plan")?;
    Ok(Listed {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        phone_number: row.try_get::<Option<String>, _>("phone_number")?.unwrap_or_default(),
        username: row.try_get::<Option<String>, _>("username")?.unwrap_or_default(),
        language: row.try_get("language")?,
        tier: if row.try_get::<String, _>("subscription_status")? == "pro" { Tier::Pro } else { Tier::Free },
        role: if row.try_get::<String, _>("role")? == "admin" { Role::Admin } else { Role::User },
        total_messages: row.try_get("total_messages")?,
        plan_completed_steps: (has_plan > 0).then(|| row.try_get("completed_steps")).transpose()?,
        plan_has_content: row.try_get::<i64, _>("filled_steps")? > 0,
        created_at: row.try_get("created_at")?,
        last_active_at: row.try_get("last_active_at")?,
    })
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub total_users: i64,
    pub active_users: i64,
    pub pro_users: i64,
    pub total_messages: i64,
    pub users_with_plans: i64,
    pub completed_plans: i64,
}

/// LGPD erasure, identity's part (the orchestration is `erasure.rs`): its rows ([`super::PERSONAL`],
/// the user row last), and the login codes and failure counts kept by the person's numbers. Returns the numbers the person was known
/// by (as delivered, and their identity), or None when there is no such user.
async fn erase(conn: &mut Tx, id: &str) -> Result<Option<Vec<String>>, AppError> {
    let row = sqlx::query("select phone_number, bsuid from users where id = $1")
        .bind(id)
        .fetch_optional(&mut **conn)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let (phone, bsuid): (Option<String>, Option<String>) =
        (row.try_get("phone_number")?, row.try_get("bsuid")?);
    personal::erase(conn, super::PERSONAL, id).await?;
    changes::user_changed(conn, id).await?;
    let mut known_by: Vec<String> = bsuid.into_iter().collect();
    let Some(phone) = phone else { return Ok(Some(known_by)) };
    // Codes and failure counts are kept by the person's identity.
    let identity =
        PhoneNumber::parse(&phone).map(|p| p.identity().e164().to_owned()).unwrap_or(phone.clone());
    for sql in [
        "delete from login_codes where phone_number = $1 or phone_number = $2",
        "delete from phone_auth_state where phone_number = $1 or phone_number = $2",
    ] {
        sqlx::query(sql).bind(&phone).bind(&identity).execute(&mut **conn).await?;
    }
    known_by.extend([phone, identity]);
    Ok(Some(known_by))
}

/// Two accounts that turned out to be one person (a Brazilian mobile registered with and without its
/// ninth digit before numbers were matched by identity): the one that did not keep the number, and
/// the one that did. Found by migration 0011; an admin resolves them (docs/admin.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub user_id: String,
    pub kept_user_id: String,
    pub phone_key: String,
}

/// The directory as a service: the admins' pages of users and their figures, the identity
/// conflicts said at every start, and the search keys filled in for users written before they existed.
#[derive(Clone)]
pub struct Directory {
    db: Db,
    totals: Totals,
}

impl Directory {
    pub fn new(db: Db) -> Self {
        Self { totals: Totals::new(&db), db }
    }

    /// A page of users, most recently active first, and how many match in all.
    pub async fn list(
        &self,
        tier: Option<Tier>,
        search: &str,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<Listed>, i64), AppError> {
        let db = &self.db;
        let mut conditions = vec!["1 = 1".to_owned()];
        // `%` and `_` typed in a search are literal (a username may hold `_`).
        let escaped = search_needle(search).replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
        let needle = format!("%{escaped}%");
        if !search.trim().is_empty() {
            conditions.push("u.search_key like $2 escape '\\'".into());
        }
        if tier.is_some() {
            conditions.push("u.subscription_status = $3".into());
        }
        let filter = conditions.join(" and ");
        // The page's users first, then the counts for those twenty only, not for every match.
        let sql = format!(
            "{LISTED} from (select * from users u where {filter} {ACTIVITY_ORDER} limit $4 offset $5) u {ACTIVITY_ORDER}"
        );
        let tier_key = tier.map(|t| t.as_str()).unwrap_or("");
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(true)
            .bind(&needle)
            .bind(tier_key)
            .bind(limit)
            .bind(offset)
            .fetch_all(db.pool())
            .await?;
        let rows = rows.iter().map(listed).collect::<Result<_, _>>()?;
        // A search counts its matches each time; the plain list (by tier or not) counts its
        // total again only after a user joined, left or changed, or once it is stale (`totals`).
        let remembered = if search.trim().is_empty() { Some(tier_key) } else { None };
        let started = match remembered.map(|key| self.totals.remembered(key, db.now_ms())) {
            Some(Ok(total)) => return Ok((rows, total)),
            Some(Err(started)) => Some(started),
            None => None,
        };
        let count_sql =
            format!("select count(*) as n from users u where {filter} and $1 = $1 and $4 = $4 and $5 = $5");
        let total: i64 = sqlx::query(sqlx::AssertSqlSafe(count_sql))
            .bind(true)
            .bind(&needle)
            .bind(tier_key)
            .bind(limit)
            .bind(offset)
            .fetch_one(db.pool())
            .await?
            .try_get("n")?;
        if let (Some(key), Some(started)) = (remembered, started) {
            self.totals.keep(key, total, started, db.now_ms());
        }
        Ok((rows, total))
    }

    /// Identity's part of an erasure, in the erasure's transaction (see [`erase`]): the numbers and
    /// ids the person was known by, or None when there is no such user.
    pub async fn erase_in(&self, tx: &mut Tx, id: &str) -> Result<Option<Vec<String>>, AppError> {
        erase(tx, id).await
    }

    /// The user as listed, when there is one.
    pub async fn get(&self, id: &str) -> Result<Option<Listed>, AppError> {
        let db = &self.db;
        let sql = format!("{LISTED} from users u where u.id = $2");
        let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(true).bind(id).fetch_optional(db.pool()).await?;
        row.as_ref().map(listed).transpose()
    }

    /// The admin panel's figures: users (active in the last 30 days, Pro), messages, plans
    /// (complete: all six steps).
    pub async fn stats(&self) -> Result<Stats, AppError> {
        let db = &self.db;
        let row = sqlx::query(
            "select (select count(*) from users) as total, \
             (select count(*) from users where last_active_at > $1) as active, \
             (select count(*) from users where subscription_status = 'pro') as pro, \
             (select count(*) from messages) as messages, \
             (select count(*) from business_plans) as plans, \
             (select count(*) from (select plan_id from plan_sections where completed = $2 group by plan_id having count(*) = 6) done) as completed",
        )
        .bind(db.now_ms() - 30 * crate::clock::DAY_MS)
        .bind(true)
        .fetch_one(db.pool())
        .await?;
        Ok(Stats {
            total_users: row.try_get("total")?,
            active_users: row.try_get("active")?,
            pro_users: row.try_get("pro")?,
            total_messages: row.try_get("messages")?,
            users_with_plans: row.try_get("plans")?,
            completed_plans: row.try_get("completed")?,
        })
    }

    /// The accounts found to be one person, waiting for an admin, oldest first.
    pub async fn identity_conflicts(&self) -> Result<Vec<Conflict>, AppError> {
        let db = &self.db;
        let rows = sqlx::query(
            "select user_id, kept_user_id, phone_key from phone_key_conflicts order by found_at, user_id",
        )
        .fetch_all(db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Conflict {
                    user_id: r.try_get("user_id")?,
                    kept_user_id: r.try_get("kept_user_id")?,
                    phone_key: r.try_get("phone_key")?,
                })
            })
            .collect::<Result<_, AppError>>()
    }

    /// Fills the search key of users who have none (written before it existed).
    pub async fn backfill_search_keys(&self) -> Result<(), AppError> {
        let db = &self.db;
        let rows = sqlx::query("select id, name, phone_number, username from users where search_key = ''")
            .fetch_all(db.pool())
            .await?;
        for row in rows {
            let (id, name): (String, String) = (row.try_get("id")?, row.try_get("name")?);
            let phone =
                row.try_get::<Option<String>, _>("phone_number")?.and_then(|p| PhoneNumber::parse(&p).ok());
            let username: Option<String> = row.try_get("username")?;
            sqlx::query("update users set search_key = $1 where id = $2")
                .bind(search_key(&name, phone.as_ref(), username.as_deref()))
                .bind(id)
                .execute(&mut *db.writer().await?)
                .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_is_searched_by_its_digits_however_it_is_typed() {
        assert_eq!(search_needle("(31) 98765-4321"), "31987654321");
        assert_eq!(search_needle("+55 31 8765-4321"), "553187654321");
        assert_eq!(search_needle("João"), "joao");
        assert_eq!(search_needle("12"), "12");
    }
}
