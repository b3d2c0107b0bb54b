//! A human consultant stepping in. A person's conversation is *waiting* when they asked for a
//! person (in words on WhatsApp, or through the model's tool) or for a consultation call (from the
//! dashboard), and *taken* while an admin answers it; giving it back ends the handoff and the
//! consultant answers again, with everything said meanwhile in its context. While waiting the
//! consultant goes on answering (nobody is left in silence until a person comes); while taken,
//! nobody but the admin does.
//!
//! Taking is one conditional statement, so of two admins racing only one takes a conversation, on
//! either engine. It also settles the messages a reply job is composing an answer to: that job's
//! final step (`messages::mark_answered`) then finds nothing of its own and drops the answer
//! instead of sending it. The handoff lives in the database, so it survives a restart.

use crate::error::AppError;
use sqlx::{AnyConnection, Row, any::AnyRow};

use super::{delivery, messages, updates};
use crate::{
    db::{Db, Tx, jobs},
    identity::{search::fold, users::User},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Waiting,
    Taken,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Taken => "taken",
        }
    }
}

/// Why a person is in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// They asked for a person (their words, or the model's tool).
    Asked,
    /// They asked for a consultation call from the dashboard.
    Call,
    /// An admin took the conversation without being asked.
    Admin,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Asked => "asked",
            Reason::Call => "call",
            Reason::Admin => "admin",
        }
    }

    fn parse(value: &str) -> Self {
        match value {
            "call" => Reason::Call,
            "admin" => Reason::Admin,
            _ => Reason::Asked,
        }
    }
}

/// A conversation waiting for, or taken by, a person; with who the person is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handoff {
    pub user_id: String,
    pub user_name: String,
    pub phone_number: String,
    pub status: Status,
    pub reason: Reason,
    /// Their words, or the times that suit them for a call.
    pub note: String,
    pub requested_at: i64,
    pub taken_by: Option<String>,
    pub taken_by_name: String,
    pub taken_at: Option<i64>,
}

const COLUMNS: &str = "h.user_id, u.name, u.phone_number, h.status, h.reason, h.note, h.requested_at, \
                       h.taken_by, h.taken_by_name, h.taken_at";

fn from_row(row: &AnyRow) -> Result<Handoff, AppError> {
    Ok(Handoff {
        user_id: row.try_get("user_id")?,
        user_name: row.try_get("name")?,
        phone_number: row.try_get("phone_number")?,
        status: if row.try_get::<String, _>("status")? == "taken" { Status::Taken } else { Status::Waiting },
        reason: Reason::parse(&row.try_get::<String, _>("reason")?),
        note: row.try_get("note")?,
        requested_at: row.try_get("requested_at")?,
        taken_by: row.try_get("taken_by")?,
        taken_by_name: row.try_get("taken_by_name")?,
        taken_at: row.try_get("taken_at")?,
    })
}

/// Longest note kept (a call's preferred times, the words that asked for a person).
pub const MAX_NOTE_CHARS: usize = 500;

/// Puts the person in the queue, unless they are in it or taken already. True when added now.
pub(in crate::conversation) async fn request(
    tx: &mut Tx,
    user_id: &str,
    reason: Reason,
    note: &str,
    now: i64,
) -> Result<bool, AppError> {
    let note: String = note.trim().chars().take(MAX_NOTE_CHARS).collect();
    let added = sqlx::query(
        "insert into handoffs (user_id, status, reason, note, requested_at, updated_at) \
         values ($1, 'waiting', $2, $3, $4, $4) on conflict (user_id) do nothing",
    )
    .bind(user_id)
    .bind(reason.as_str())
    .bind(&note)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1;
    if added {
        updates::changed(tx, user_id).await?;
    }
    Ok(added)
}

/// What asking for a consultation call came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallRequest {
    /// A new request in the queue.
    Added,
    /// The person was already waiting for a person (their words on WhatsApp): that request is a
    /// call now, with the times, and keeps what they had said.
    Joined,
    /// A call was asked already: one at a time.
    Already,
}

/// Asks for a consultation call with the preferred times: a new request, or the waiting one
/// (asked on WhatsApp) becomes a call with the times — in one statement, so two at once cannot
/// both add, and the times are never lost.
pub(in crate::conversation) async fn request_call(
    tx: &mut Tx,
    user_id: &str,
    times: &str,
    now: i64,
) -> Result<CallRequest, AppError> {
    let note: String = times.trim().chars().take(MAX_NOTE_CHARS).collect();
    let row = sqlx::query(
        "insert into handoffs (user_id, status, reason, note, requested_at, updated_at) \
         values ($1, 'waiting', 'call', $2, $3, $3) \
         on conflict (user_id) do update set reason = 'call', \
           note = substr(excluded.note || case when handoffs.note = '' then '' else ' — ' || handoffs.note end, 1, cast($4 as integer)), \
           updated_at = excluded.updated_at \
         where handoffs.reason <> 'call' \
         returning requested_at",
    )
    .bind(user_id)
    .bind(&note)
    .bind(now)
    .bind(MAX_NOTE_CHARS as i64)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(row) = row else { return Ok(CallRequest::Already) };
    updates::changed(tx, user_id).await?;
    let requested_at: i64 = row.try_get("requested_at")?;
    Ok(if requested_at == now { CallRequest::Added } else { CallRequest::Joined })
}

/// What taking a conversation came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Take {
    /// It is the admin's now (or was already).
    Taken,
    /// Another admin has it: their name.
    TakenBy(String),
}

/// The admin takes the person's conversation, waiting or not. An answer the consultant is
/// composing for them is dropped.
pub(in crate::conversation) async fn take(
    tx: &mut Tx,
    user_id: &str,
    admin: &User,
    now: i64,
) -> Result<Take, AppError> {
    let taken = sqlx::query(
        "insert into handoffs (user_id, status, reason, note, requested_at, taken_by, taken_by_name, taken_at, updated_at) \
         values ($1, 'taken', 'admin', '', $2, $3, $4, $2, $2) \
         on conflict (user_id) do update set status = 'taken', taken_by = excluded.taken_by, \
         taken_by_name = excluded.taken_by_name, taken_at = excluded.taken_at, updated_at = excluded.updated_at \
         where handoffs.status = 'waiting' or handoffs.taken_by = excluded.taken_by",
    )
    .bind(user_id)
    .bind(now)
    .bind(&admin.id)
    .bind(display_name(admin))
    .execute(&mut **tx)
    .await?
    .rows_affected()
        == 1;
    if !taken {
        let holder = get(tx, user_id).await?.map(|h| h.taken_by_name).unwrap_or_default();
        return Ok(Take::TakenBy(holder));
    }
    messages::settle_in_progress(tx, user_id, now).await?;
    updates::changed(tx, user_id).await?;
    Ok(Take::Taken)
}

/// How an admin is named to other admins: their name, else their number.
pub fn display_name(admin: &User) -> String {
    if admin.name.trim().is_empty() { admin.handle() } else { admin.name.clone() }
}

/// The conversation goes back to the consultant (or a waiting request is closed). True when there
/// was a handoff. Messages that came while it was taken were the admin's to answer: the
/// consultant answers what comes next, with them in its context.
pub(in crate::conversation) async fn give_back(tx: &mut Tx, user_id: &str) -> Result<bool, AppError> {
    let ended = sqlx::query("delete from handoffs where user_id = $1")
        .bind(user_id)
        .execute(&mut **tx)
        .await?
        .rows_affected()
        == 1;
    if ended {
        updates::changed(tx, user_id).await?;
    }
    Ok(ended)
}

pub(in crate::conversation) async fn get(
    conn: &mut AnyConnection,
    user_id: &str,
) -> Result<Option<Handoff>, AppError> {
    let sql =
        format!("select {COLUMNS} from handoffs h join users u on u.id = h.user_id where h.user_id = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(user_id).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

/// The queue: those waiting, longest first, then those taken.
pub(in crate::conversation) async fn list(db: &Db) -> Result<Vec<Handoff>, AppError> {
    let sql = format!(
        "select {COLUMNS} from handoffs h join users u on u.id = h.user_id \
         order by case when h.status = 'waiting' then 0 else 1 end, h.requested_at limit 500"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(db.pool()).await?;
    rows.iter().map(from_row).collect()
}

/// Why an admin's message was not sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// More than 24 hours since the person last wrote: WhatsApp refuses free text.
    OutsideWindow,
    /// Another admin is answering them: their name.
    TakenBy(String),
}

/// Stores the admin's message in the person's conversation, written by a person, and enqueues its
/// delivery through the same durable send path as the consultant's. Returns the message's id.
pub(in crate::conversation) async fn write_as_person(
    tx: &mut Tx,
    person: &User,
    admin: &User,
    text: &str,
    now: i64,
) -> Result<Result<String, Refusal>, AppError> {
    if let Some(handoff) = get(tx, &person.id).await?
        && handoff.status == Status::Taken
        && handoff.taken_by.as_deref() != Some(admin.id.as_str())
    {
        return Ok(Err(Refusal::TakenBy(handoff.taken_by_name)));
    }
    if !delivery::window_open_in(tx, &person.id, now).await? {
        return Ok(Err(Refusal::OutsideWindow));
    }
    let id = messages::insert_by_person(tx, &person.id, &admin.id, &display_name(admin), text, now).await?;
    jobs::enqueue(tx, delivery::send_job(&id, &person.id)).await?;
    updates::changed(tx, &person.id).await?;
    Ok(Ok(id))
}

/// Whether what someone wrote asks for a person rather than the consultant: an expressed wish
/// ("quero falar com um humano", "me passa para um atendente", "tem alguém aí?", "talk to a
/// person"), never a noun inside an answer or a description ("somos 4: eu, um padeiro, um atendente
/// e um entregador", "duas pessoas"). The offline guide's rule; a model decides through its
/// `request_human` tool instead.
pub fn asks_for_a_person(text: &str) -> bool {
    let text = fold(text);
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    // The whole message is the noun: "humano?", "atendente!", "human".
    let alone = matches!(words.as_slice(), [w] | ["um" | "uma" | "a" | "an", w] if PEOPLE.contains(w));
    asks_to_talk_to_one(&words)
        || wants_one(&words)
        || anyone_there(&text)
        || alone
        || WISHES.iter().any(|w| text.contains(w))
}

const PEOPLE: &[&str] = &[
    "humano",
    "humana",
    "pessoa",
    "alguem",
    "atendente",
    "consultor",
    "consultora",
    "especialista",
    "human",
    "person",
    "someone",
    "somebody",
    "agent",
    "representative",
];
const ARTICLES: &[&str] =
    &["um", "uma", "o", "a", "algum", "alguma", "de", "the", "an", "some", "real", "actual"];
// "falar com (um) humano", "me passa pra (uma) pessoa", "talk to (a) human", "connect me to (an) agent".
const ASKS: &[&[&str]] = &[
    &["falar", "com"],
    &["conversar", "com"],
    &["passa", "para"],
    &["passa", "pra"],
    &["passe", "para"],
    &["passe", "pra"],
    &["transfere", "para"],
    &["transfere", "pra"],
    &["transfira", "para"],
    &["encaminha", "para"],
    &["encaminhe", "para"],
    &["chama"],
    &["chame"],
    &["talk", "to"],
    &["talk", "with"],
    &["speak", "to"],
    &["speak", "with"],
    &["chat", "with"],
    &["connect", "me", "to"],
    &["connect", "me", "with"],
    &["transfer", "me", "to"],
    &["put", "me", "through", "to"],
];
// The wish is the writer's: the request opens the message, or a first-person or polite word
// comes just before it ("quero falar com…", "can I speak to…"), not "o cliente fala com…".
const MINE: &[&str] = &[
    "quero", "queria", "gostaria", "preciso", "posso", "poderia", "podia", "me", "favor", "i", "can",
    "could", "let", "want", "need", "please", "like",
];
// Said as such: "atendimento humano", "pessoa de verdade", "real person", "live agent".
const WISHES: &[&str] = &[
    "atendimento humano",
    "pessoa de verdade",
    "humano de verdade",
    "pessoa real",
    "real person",
    "human agent",
    "live agent",
    "a human please",
];

/// "quero falar com um humano", "can I speak to a person": a request to talk to one, the writer's.
fn asks_to_talk_to_one(words: &[&str]) -> bool {
    let person_after = |from: usize| {
        words[from.min(words.len())..]
            .iter()
            .take(3)
            .skip_while(|w| ARTICLES.contains(w))
            .take(1)
            .any(|w| PEOPLE.contains(w))
    };
    let mine = |i: usize| i == 0 || words[i.saturating_sub(3)..i].iter().any(|w| MINE.contains(w));
    (0..words.len())
        .any(|i| mine(i) && ASKS.iter().any(|ask| words[i..].starts_with(ask) && person_after(i + ask.len())))
}

/// A short request for one: "quero um atendente", "atendente, por favor", "need a human".
fn wants_one(words: &[&str]) -> bool {
    let polite = |w: &&str| matches!(*w, "por" | "favor" | "please" | "pfv" | "pf");
    let short: Vec<&str> = words.iter().copied().filter(|w| !polite(w)).collect();
    short.len() <= 4
        && short.iter().any(|w| PEOPLE.contains(w))
        && (short.len() < words.len()
            || short.iter().any(|w| matches!(*w, "quero" | "queria" | "preciso" | "want" | "need")))
}

/// "tem alguém aí?", "is anyone there?", "anybody there?"
fn anyone_there(text: &str) -> bool {
    [
        "tem alguem ai",
        "alguem ai",
        "tem algum humano",
        "is anyone there",
        "anybody there",
        "is there a human",
        "is there a person",
    ]
    .iter()
    .any(|phrase| text.contains(phrase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asking_for_a_person_is_heard_in_both_languages_whatever_the_accents() {
        for text in [
            "Quero falar com um humano",
            "Posso falar com ALGUÉM da equipe?",
            "atendente por favor",
            "Preciso de atendimento humano",
            "I'd like to talk to a human",
            "Can I speak to a real person?",
        ] {
            assert!(asks_for_a_person(text), "{text}");
        }
        for text in [
            "Me passa para um humano",
            "tem alguém aí?",
            "Humano?",
            "quero um atendente",
            "Is anyone there?",
            "Can you connect me to an agent?",
        ] {
            assert!(asks_for_a_person(text), "{text}");
        }
        // Nouns inside an answer or a description are not a wish.
        for text in [
            "Quero abrir uma padaria",
            "Quanto custa o MEI?",
            "How do I price my cakes?",
            "Somos 4 pessoas: eu, um padeiro, um atendente e um entregador",
            "duas pessoas",
            "Vou contratar um atendente para o balcão",
            "Preciso de uma pessoa para o caixa e outra para as entregas",
            "O cliente pode falar com alguém no balcão ou pelo Instagram",
            "os clientes falam com a gente pelo WhatsApp",
            "We are two people and one agent sells for us",
        ] {
            assert!(!asks_for_a_person(text), "{text}");
        }
    }
}
