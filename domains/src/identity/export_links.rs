//! The rows behind the LGPD exports' links (`privacy::Privacy` signs them): each link is single
//! use and lives only while the session that asked for it stands and its asker still holds the
//! role they asked with. Spending one is one conditional statement, so two downloads at once serve
//! one copy.

use crate::{db::Db, error::AppError};

/// Who asked for a link, as the link remembers them: the session it was asked in and the role held.
pub struct Asker<'a> {
    pub user_id: &'a str,
    pub session_id: &'a str,
    pub role: &'a str,
}

/// What a signed link may do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkClaim {
    /// Serve the copy (the link is now spent).
    Serve,
    /// Served once already.
    Used,
    /// Past its window, or no such link.
    Gone,
    /// The session that asked ended, or its asker no longer holds the role they asked with.
    AskerGone,
}

#[derive(Clone)]
pub struct ExportLinks {
    db: Db,
}

impl ExportLinks {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Keeps a new link `link_id` to `user_id`'s copy, asked by `asker`, valid until `expires`;
    /// links a day past their end go.
    pub async fn record(
        &self,
        link_id: &str,
        user_id: &str,
        asker: &Asker<'_>,
        expires: i64,
    ) -> Result<(), AppError> {
        let now = self.db.now_ms();
        let mut writer = self.db.writer().await?;
        sqlx::query(
            "insert into export_links (id, user_id, requester_id, session_id, requester_role, expires_at, created_at) \
             values ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(link_id)
        .bind(user_id)
        .bind(asker.user_id)
        .bind(asker.session_id)
        .bind(asker.role)
        .bind(expires)
        .bind(now)
        .execute(&mut *writer)
        .await?;
        sqlx::query("delete from export_links where expires_at < $1")
            .bind(now - crate::clock::DAY_MS)
            .execute(&mut *writer)
            .await?;
        Ok(())
    }

    /// Spends a link: only while unused, in its window, and while the session that asked for it
    /// stands and its asker still holds the role they asked with (an admin logged out, or no
    /// longer an admin, has no copy served by an old link).
    pub async fn claim(&self, link_id: &str, user_id: &str) -> Result<LinkClaim, AppError> {
        let now = self.db.now_ms();
        let claimed = sqlx::query(
            "update export_links set used_at = $1 where id = $2 and user_id = $3 and used_at is null \
             and expires_at >= $1 \
             and exists (select 1 from refresh_tokens t where t.family_id = export_links.session_id \
               and t.user_id = export_links.requester_id and t.revoked_at is null and t.expires_at > $1) \
             and exists (select 1 from users u where u.id = export_links.requester_id \
               and u.role = export_links.requester_role)",
        )
        .bind(now)
        .bind(link_id)
        .bind(user_id)
        .execute(&mut *self.db.writer().await?)
        .await?
        .rows_affected();
        if claimed == 1 {
            return Ok(LinkClaim::Serve);
        }
        let row: Option<(Option<i64>, i64)> =
            sqlx::query_as("select used_at, expires_at from export_links where id = $1 and user_id = $2")
                .bind(link_id)
                .bind(user_id)
                .fetch_optional(self.db.pool())
                .await?;
        Ok(match row {
            None => LinkClaim::Gone,
            Some((Some(_), _)) => LinkClaim::Used,
            Some((None, expires)) if expires < now => LinkClaim::Gone,
            Some((None, _)) => LinkClaim::AskerGone,
        })
    }

    /// Gives a claimed link back when its copy could not be built: the person may try again.
    pub async fn release(&self, link_id: &str) -> Result<(), AppError> {
        sqlx::query("update export_links set used_at = null where id = $1")
            .bind(link_id)
            .execute(&mut *self.db.writer().await?)
            .await?;
        Ok(())
    }
}
