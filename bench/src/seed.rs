//! The bench's data set, written in bulk: one `INSERT … SELECT` per table over a recursive counter
//! (the same SQL on SQLite and PostgreSQL), so 10k users and 200k messages take seconds, not minutes.
//!
//! User `n` (1-based) has the phone [`phone`]`(n)`; user 1 is the admin, every fifth user is Pro,
//! seven users in ten have a plan with six sections, and each user has the same number of messages,
//! alternating theirs and the consultant's.

use std::time::{Duration, Instant};

use socio::db::Db;

#[derive(Clone, Copy, Debug)]
pub struct Size {
    pub users: usize,
    pub messages: usize,
}

impl Default for Size {
    fn default() -> Self {
        Self { users: 10_000, messages: 200_000 }
    }
}

/// The phone of seeded user `n`.
pub fn phone(n: usize) -> String {
    format!("+55119{}", 10_000_000 + n)
}

/// True when seeded user `n` is Pro.
pub fn is_pro(n: usize) -> bool {
    n.is_multiple_of(5)
}

fn counter(to: usize) -> String {
    format!("with recursive seq(n) as (select 1 union all select n + 1 from seq where n < {to})")
}

pub async fn seed(db: &Db, size: Size) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let now = db.now_ms();
    let per_user = (size.messages / size.users.max(1)).max(1);
    let statements = [
        format!(
            "insert into users (id, phone_number, phone_key, name, language, subscription_status, role, created_at, updated_at, last_active_at, search_key) \
             {seq} select 'seed-u-' || n, '+55119' || cast(10000000 + n as text), '+55119' || cast(10000000 + n as text), \
                 case when n = 1 then 'Admin Bench' else 'Empreendedora ' || n end, \
                 case when n % 4 = 0 then 'en' else 'pt-BR' end, \
                 case when n % 5 = 0 then 'pro' else 'free' end, \
                 case when n = 1 then 'admin' else 'user' end, \
                 {now} - n * 60000, {now} - n * 60000, {now} - n * 1000, \
                 case when n = 1 then 'admin bench' else 'empreendedora ' || n end || ' 55119' || cast(10000000 + n as text) \
             from seq",
            seq = counter(size.users),
        ),
        format!(
            "insert into messages (id, user_id, direction, author, kind, content, wa_message_id, status, created_at, updated_at) \
             {seq}, k(k) as (select 1 union all select k + 1 from k where k < {per_user}) \
             select 'seed-m-' || n || '-' || k, 'seed-u-' || n, \
                 case when k % 2 = 1 then 'inbound' else 'outbound' end, \
                 case when k % 2 = 1 then 'user' else 'assistant' end, 'text', \
                 case when k % 2 = 1 then 'Quero abrir uma padaria no meu bairro, quanto preciso investir? (' || k || ')' \
                      else 'Ótima ideia! Vamos calcular o investimento inicial: equipamentos, reforma e capital de giro. (' || k || ')' end, \
                 'wamid.seed.' || n || '.' || k, \
                 case when k % 2 = 1 then 'received' else 'read' end, \
                 {now} - n * 60000 + k * 1000, {now} - n * 60000 + k * 1000 \
             from seq, k",
            seq = counter(size.users),
        ),
        format!(
            "insert into business_plans (id, user_id, created_at, updated_at) \
             {seq} select 'seed-p-' || n, 'seed-u-' || n, {now} - n * 60000, {now} - n * 1000 \
             from seq where n % 10 < 7",
            seq = counter(size.users),
        ),
        format!(
            // Empty sections, said empty as the server writes them (`filled`), so its start has
            // nothing to judge.
            "insert into plan_sections (plan_id, step, data, completed, updated_at, filled) \
             {seq}, steps(k, step) as (values (1, 'idea'), (2, 'market'), (3, 'finance'), (4, 'marketing'), (5, 'hr'), (6, 'legal')) \
             select 'seed-p-' || n, step, '{{}}', (n + k) % 3 = 0, {now} - n * 1000, 1 = 0 \
             from seq, steps where n % 10 < 7",
            seq = counter(size.users),
        ),
    ];
    let mut tx = db.begin().await?;
    for sql in statements {
        sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    // Fresh statistics, as a database that grew to this size would have.
    sqlx::query("analyze").execute(db.pool()).await?;
    Ok(started.elapsed())
}
