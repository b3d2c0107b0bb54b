//! Where a person's rows are, declared once beside the room that keeps them: each table (and
//! column) that names a person says what an LGPD erasure does to its rows and whether they follow
//! the person when a number change joins two accounts. The erasure and the number change walk
//! these lists; a test in the top crate checks that every column of the schema that points at a
//! user is declared in one of them, so a new table cannot be forgotten.

use sqlx::AnyConnection;

use crate::error::AppError;

/// One table's rows of a person.
#[derive(Clone, Copy, Debug)]
pub struct Personal {
    pub table: &'static str,
    /// How a row names its person.
    pub owner: Owner,
    pub erase: Erase,
    pub hand_over: HandOver,
}

/// How a row names its person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// A column holding the user's id.
    Column(&'static str),
    /// A column holding the id of a row of `parent`, whose `user_id` is the person's (a plan's
    /// sections, by `plan_id`).
    Through { column: &'static str, parent: &'static str },
}

/// What an erasure does to the rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Erase {
    /// They go.
    Delete,
    /// They stay without the person (records the law keeps): these columns become null, the
    /// owner's among them.
    Forget(&'static [&'static str]),
    /// They stay as they are: what we still owe the person (a refund to pay, to the key they gave).
    Keep,
}

/// What a number change does to the rows of the account it absorbs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandOver {
    /// They become the receiving account's.
    Move,
    /// They become the receiving account's, except where it already has a row with the same
    /// values of these columns: those of the absorbed account go.
    MoveUnlessHeld(&'static [&'static str]),
    /// They stay and go with the absorbed account: an account that holds such rows is never
    /// absorbed (a plan, a subscription), or they are about the account itself (its sessions,
    /// its summary), or they follow their parent row.
    Stay,
}

impl Personal {
    /// Rows whose `column` holds the user's id.
    pub const fn of(table: &'static str, column: &'static str, erase: Erase, hand_over: HandOver) -> Self {
        Self { table, owner: Owner::Column(column), erase, hand_over }
    }

    /// Rows that belong to a row of `parent` (by `column`), which belongs to the person.
    pub const fn through(table: &'static str, column: &'static str, parent: &'static str) -> Self {
        Self {
            table,
            owner: Owner::Through { column, parent },
            erase: Erase::Delete,
            hand_over: HandOver::Stay,
        }
    }

    /// The column that names the person, directly or through its parent.
    pub fn column(&self) -> &'static str {
        match self.owner {
            Owner::Column(column) | Owner::Through { column, .. } => column,
        }
    }

    /// The condition that picks the person's rows, with the user's id as `$1`.
    fn whose(&self) -> String {
        match self.owner {
            Owner::Column(column) => format!("{column} = $1"),
            Owner::Through { column, parent } => {
                format!("{column} in (select id from {parent} where user_id = $1)")
            }
        }
    }

    /// The statement an erasure runs, with the user's id as `$1` (none for rows it keeps).
    fn erasure(&self) -> String {
        let (table, whose) = (self.table, self.whose());
        match self.erase {
            Erase::Delete => format!("delete from {table} where {whose}"),
            Erase::Forget(columns) => {
                let nulls: Vec<String> = columns.iter().map(|c| format!("{c} = null")).collect();
                format!("update {table} set {} where {whose}", nulls.join(", "))
            }
            Erase::Keep => String::new(),
        }
    }

    /// The statements a hand-over runs, with `from` as `$1` and `into` as `$2`.
    fn hand_over(&self) -> Vec<String> {
        let Owner::Column(column) = self.owner else { return Vec::new() };
        let table = self.table;
        match self.hand_over {
            HandOver::Move => vec![format!("update {table} set {column} = $2 where {column} = $1")],
            HandOver::MoveUnlessHeld(keys) => {
                let same: Vec<String> = keys.iter().map(|k| format!("held.{k} = {table}.{k}")).collect();
                vec![
                    format!(
                        "update {table} set {column} = $2 where {column} = $1 and not exists \
                         (select 1 from {table} held where held.{column} = $2 and {})",
                        same.join(" and ")
                    ),
                    format!("delete from {table} where {column} = $1"),
                ]
            }
            HandOver::Stay => Vec::new(),
        }
    }
}

/// Erases the person's rows of every table in `rows`, in order, in `conn`'s transaction.
pub async fn erase(conn: &mut AnyConnection, rows: &[Personal], user_id: &str) -> Result<(), AppError> {
    for sql in rows.iter().map(Personal::erasure).filter(|sql| !sql.is_empty()) {
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Hands `from`'s rows of every table in `rows` to `into`, in `conn`'s transaction.
pub async fn hand_over(
    conn: &mut AnyConnection,
    rows: &[Personal],
    from: &str,
    into: &str,
) -> Result<(), AppError> {
    for sql in rows.iter().flat_map(Personal::hand_over) {
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(from).bind(into).execute(&mut *conn).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKINS: Personal =
        Personal::of("sent", "user_id", Erase::Delete, HandOver::MoveUnlessHeld(&["period"]));
    const RECEIPTS: Personal =
        Personal::of("receipts", "user_id", Erase::Forget(&["user_id", "name"]), HandOver::Move);
    const PLANS: Personal = Personal::of("business_plans", "user_id", Erase::Delete, HandOver::Stay);
    const SECTIONS: Personal = Personal::through("sections", "plan_id", "business_plans");
    const OWED: Personal = Personal::of("owed", "user_id", Erase::Keep, HandOver::Move);

    async fn db() -> (tempfile::TempDir, sqlx::AnyPool) {
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("personal.db").display());
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        for sql in [
            "create table sent (user_id text, period text)",
            "create table receipts (id integer, user_id text, name text)",
            "create table business_plans (id text, user_id text)",
            "create table sections (plan_id text, body text)",
            "create table owed (user_id text)",
            "insert into owed values ('ana')",
            "insert into sent values ('ana', '2026-11'), ('ana', '2026-12'), ('bia', '2026-12')",
            "insert into receipts values (1, 'ana', 'Ana'), (2, 'bia', 'Bia')",
            "insert into business_plans values ('p1', 'ana'), ('p2', 'bia')",
            "insert into sections values ('p1', 'x'), ('p2', 'y')",
        ] {
            sqlx::query(sql).execute(&pool).await.unwrap();
        }
        (dir, pool)
    }

    async fn rows(pool: &sqlx::AnyPool, sql: &str) -> Vec<String> {
        use sqlx::Row;
        sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()))
            .fetch_all(pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.try_get::<Option<String>, _>(0).unwrap().unwrap_or_else(|| "null".into()))
            .collect()
    }

    #[tokio::test]
    async fn an_erasure_deletes_forgets_and_reaches_rows_through_their_parent_leaving_others_alone() {
        let (_dir, pool) = db().await;
        let mut conn = pool.acquire().await.unwrap();
        erase(&mut conn, &[CHECKINS, RECEIPTS, SECTIONS, PLANS, OWED], "ana").await.unwrap();
        assert_eq!(rows(&pool, "select user_id from owed").await, ["ana"], "what we owe her stays");
        assert_eq!(rows(&pool, "select user_id from sent").await, ["bia"]);
        assert_eq!(
            rows(
                &pool,
                "select coalesce(user_id, '') || '/' || coalesce(name, '') from receipts order by id"
            )
            .await,
            ["/", "bia/Bia"]
        );
        assert_eq!(rows(&pool, "select plan_id from sections").await, ["p2"]);
        assert_eq!(rows(&pool, "select id from business_plans").await, ["p2"]);
    }

    #[tokio::test]
    async fn a_hand_over_moves_rows_keeps_what_the_receiver_already_holds_and_leaves_what_stays() {
        let (_dir, pool) = db().await;
        let mut conn = pool.acquire().await.unwrap();
        hand_over(&mut conn, &[CHECKINS, RECEIPTS, SECTIONS, PLANS, OWED], "ana", "bia").await.unwrap();
        assert_eq!(rows(&pool, "select user_id from owed").await, ["bia"]);
        // Bia had December's check-in already: Ana's November one moves, her December one goes.
        assert_eq!(
            rows(&pool, "select user_id || ' ' || period from sent order by period, user_id").await,
            ["bia 2026-11", "bia 2026-12"]
        );
        assert_eq!(rows(&pool, "select user_id from receipts order by id").await, ["bia", "bia"]);
        assert_eq!(rows(&pool, "select user_id from business_plans order by id").await, ["ana", "bia"]);
    }
}
