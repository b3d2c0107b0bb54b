//! The erasure's lists against the schema: every column that names a person is declared, and
//! every declared column exists.

use std::collections::BTreeSet;

use super::*;
use crate::{billing, identity};

/// Columns that point at a person and stay as they are, with why.
const KEPT: [(&str, &str, &str); 3] = [
    (
        "audit_events",
        "actor_id",
        "the audit log records who did what to whom (an erasure too), by id only: the controller's record of its operations (LGPD art. 37)",
    ),
    ("audit_events", "target_id", "as actor_id"),
    ("jobs", "locked_by", "a worker's id, not a person's"),
];

/// Every list of a person's rows, the walked ones and those the doors walk.
fn every() -> Vec<Personal> {
    [billing::PERSONAL, identity::PERSONAL].into_iter().chain(WALKED).flatten().copied().collect()
}

/// A column names a person when it references `users`, or by its name.
fn points_at_a_person(column: &str, references_users: bool) -> bool {
    references_users
        || column == "user_id"
        || column.ends_with("_user_id")
        || column.ends_with("_by")
        || ["actor_id", "target_id", "requester_id"].contains(&column)
}

async fn schema() -> (tempfile::TempDir, Vec<(String, String, bool)>) {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::connect(&format!("sqlite://{}/socio.db", dir.path().display())).await.unwrap();
    db.migrate().await.unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "select name from sqlite_master where type = 'table' \
         and name not like 'sqlite_%' and name not like '_sqlx%'",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    let mut columns = Vec::new();
    for table in tables {
        let names: Vec<String> = sqlx::query_scalar("select name from pragma_table_info($1)")
            .bind(&table)
            .fetch_all(db.pool())
            .await
            .unwrap();
        let to_users: Vec<String> =
            sqlx::query_scalar("select \"from\" from pragma_foreign_key_list($1) where \"table\" = 'users'")
                .bind(&table)
                .fetch_all(db.pool())
                .await
                .unwrap();
        for name in names {
            let references = to_users.contains(&name);
            columns.push((table.clone(), name, references));
        }
    }
    db.close().await;
    (dir, columns)
}

#[tokio::test]
async fn every_column_that_points_at_a_person_says_what_an_erasure_does_to_it() {
    let (_dir, columns) = schema().await;
    // A column an erasure forgets is declared with the rows that hold it.
    let declared: BTreeSet<(&str, &str)> = every()
        .iter()
        .flat_map(|p| {
            let forgotten = match p.erase {
                personal::Erase::Forget(columns) => columns,
                personal::Erase::Delete | personal::Erase::Keep => &[],
            };
            std::iter::once((p.table, p.column())).chain(forgotten.iter().map(|c| (p.table, *c)))
        })
        .collect();
    let kept: BTreeSet<(&str, &str)> = KEPT.iter().map(|(t, c, _)| (*t, *c)).collect();
    let missing: Vec<String> = columns
        .iter()
        .filter(|(table, column, references)| {
            points_at_a_person(column, *references)
                && !declared.contains(&(table.as_str(), column.as_str()))
                && !kept.contains(&(table.as_str(), column.as_str()))
        })
        .map(|(table, column, _)| format!("{table}.{column}"))
        .collect();
    assert!(
        missing.is_empty(),
        "columns that name a person in no domain's PERSONAL list (declare what an erasure and a number change do to them):\n{}",
        missing.join("\n")
    );
}

#[tokio::test]
async fn every_declared_table_and_column_exists_in_the_schema() {
    let (_dir, columns) = schema().await;
    let exists: BTreeSet<(&str, &str)> = columns.iter().map(|(t, c, _)| (t.as_str(), c.as_str())).collect();
    let mut named: Vec<(&str, &str)> = Vec::new();
    for rows in every() {
        named.push((rows.table, rows.column()));
        if let personal::Erase::Forget(forgotten) = rows.erase {
            named.extend(forgotten.iter().map(|c| (rows.table, *c)));
        }
        if let personal::HandOver::MoveUnlessHeld(keys) = rows.hand_over {
            named.extend(keys.iter().map(|c| (rows.table, *c)));
        }
        if let personal::Owner::Through { parent, .. } = rows.owner {
            named.push((parent, "user_id"));
        }
    }
    let unknown: Vec<String> =
        named.iter().filter(|n| !exists.contains(n)).map(|(t, c)| format!("{t}.{c}")).collect();
    assert!(unknown.is_empty(), "declared but not in the schema:\n{}", unknown.join("\n"));
}
