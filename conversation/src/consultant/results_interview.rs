//! The offline guide's short interview for a month's results: started by "resultados" (or by an
//! answer to the monthly check-in), it asks last month's revenue, costs and number of sales, one
//! at a time, records them (`plan::tracking::results`) and answers with the month against the plan. The
//! answers so far wait in the guide's state (`guide_state.draft`); "pular" leaves the interview.

use serde_json::{Value as Json, json};
use sqlx::Row;

use super::parse;
use crate::{
    conversation::messages::Messages,
    db::Db,
    error::AppError,
    identity::users::User,
    locale::Language,
    plan::{
        money::format_brl,
        month::YearMonth,
        store::Source,
        tracking::{
            Results,
            results::{self, Forecast, MonthResult, Variance},
        },
    },
    whatsapp::templates::Template,
};

/// The guide state's step while this interview runs.
pub const STEP: &str = "results";

/// The words that start it.
pub fn starts(text: &str) -> bool {
    let lower = text.trim().to_lowercase();
    let lower = lower.trim_matches(|c: char| !c.is_alphanumeric());
    matches!(lower, "resultados" | "resultado" | "results" | "fechar o mês" | "fechar o mes" | "fechar mês")
}

/// Whether our last message to the person was the monthly check-in (their message answers it).
pub(in crate::consultant) async fn answers_a_checkin(db: &Db, user_id: &str) -> Result<bool, AppError> {
    let last = Messages::new(db.clone()).last_outbound(user_id).await?;
    Ok(last.and_then(|m| m.template).is_some_and(|t| t.template == Template::Checkin))
}

/// The field the interview waits on, with the answers so far; None when it is not running.
pub(in crate::consultant) async fn pending(
    db: &Db,
    user_id: &str,
) -> Result<Option<(String, Json)>, AppError> {
    let row = sqlx::query("select field, draft from guide_state where user_id = $1 and step = $2")
        .bind(user_id)
        .bind(STEP)
        .fetch_optional(db.pool())
        .await?;
    Ok(row.and_then(|r| {
        let field: String = r.try_get("field").ok()?;
        let draft: Option<String> = r.try_get("draft").ok()?;
        Some((field, draft.and_then(|d| serde_json::from_str(&d).ok()).unwrap_or_else(|| json!({}))))
    }))
}

async fn wait_for(db: &Db, user_id: &str, field: &str, draft: &Json) -> Result<(), AppError> {
    sqlx::query(
        "insert into guide_state (user_id, step, field, draft, updated_at) values ($1, $2, $3, $4, $5) \
         on conflict (user_id) do update set step = excluded.step, field = excluded.field, \
         draft = excluded.draft, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(STEP)
    .bind(field)
    .bind(draft.to_string())
    .bind(db.now_ms())
    .execute(&mut *db.writer().await?)
    .await?;
    Ok(())
}

/// Leaves the interview (the plan's interview picks up where it was next time).
pub(in crate::consultant) async fn leave(db: &Db, user_id: &str) -> Result<(), AppError> {
    sqlx::query("delete from guide_state where user_id = $1 and step = $2")
        .bind(user_id)
        .bind(STEP)
        .execute(&mut *db.writer().await?)
        .await?;
    Ok(())
}

fn question(field: &str, month: &str, lang: Language) -> String {
    match field {
        "revenue" => say!(lang, "consultant-results-interview-let-s-close-how-much", month),
        "costs" => say!(lang, "consultant-results-interview-and-how-much-went-out"),
        _ => say!(lang, "consultant-results-interview-how-many-sales-or-clients"),
    }
}

/// Starts the interview for last month; `first_answer` (what answered a check-in) is taken as the
/// revenue when it reads as an amount.
pub(in crate::consultant) async fn start(
    db: &Db,
    results: &Results,
    user: &User,
    first_answer: Option<&str>,
) -> Result<String, AppError> {
    let month = YearMonth::current(db.now_ms()).previous();
    let draft = json!({"month": month.key()});
    wait_for(db, &user.id, "revenue", &draft).await?;
    match first_answer {
        Some(text) if parse::amount(text).is_some() => {
            answer(db, results, user, "revenue", draft, text).await
        }
        _ => Ok(question("revenue", &month.name(user.language), user.language)),
    }
}

/// Takes the answer to the field the interview waits on.
pub(in crate::consultant) async fn answer(
    db: &Db,
    results: &Results,
    user: &User,
    field: &str,
    mut draft: Json,
    text: &str,
) -> Result<String, AppError> {
    let lang = user.language;
    let month = draft["month"]
        .as_str()
        .and_then(|m| YearMonth::parse("month", m, db.now_ms()).ok())
        .unwrap_or_else(|| YearMonth::current(db.now_ms()).previous());
    let value = match field {
        "sales" => parse::count(text).map(f64::from),
        _ => parse::amount(text),
    };
    let Some(value) = value.filter(|v| *v >= 0.0) else {
        return Ok(format!(
            "{} {}",
            say!(lang, "consultant-results-interview-i-couldn-t-read-that"),
            question(field, &month.name(lang), lang)
        ));
    };
    draft[field] = json!(value);
    let next = match field {
        "revenue" => Some("costs"),
        "costs" => Some("sales"),
        _ => None,
    };
    if let Some(next) = next {
        wait_for(db, &user.id, next, &draft).await?;
        return Ok(format!(
            "{} {}",
            say!(lang, "consultant-guide-got-it"),
            question(next, &month.name(lang), lang)
        ));
    }
    let revenue = draft["revenue"].as_f64().unwrap_or_default();
    let costs = draft["costs"].as_f64().unwrap_or_default();
    let recorded =
        match results.record_month(&user.id, month, (revenue, costs, value as i64), Source::WhatsApp).await {
            Ok(recorded) => recorded,
            Err(err @ AppError::InvalidInput(_)) => {
                leave(db, &user.id).await?;
                return Ok(err.message(lang));
            }
            Err(err) => return Err(err),
        };
    leave(db, &user.id).await?;
    let mut reply = recorded_text(&recorded, lang);
    if let Some(forecast) = results.forecast_for(&user.id).await? {
        let forecast = forecast.month(recorded.month);
        reply.push_str(&against_plan_text(&forecast, &results::variance(&recorded, &forecast), lang));
    }
    Ok(reply)
}

/// The month as recorded: revenue, costs, result and sales.
fn recorded_text(recorded: &MonthResult, lang: Language) -> String {
    let brl = |v: f64| format_brl(v, lang);
    say!(
        lang,
        "consultant-results-interview-recorded-revenue-costs-and-a",
        month = recorded.month.name(lang),
        revenue = brl(recorded.revenue),
        costs = brl(recorded.costs),
        recorded = brl(recorded.result()),
        sales_count = recorded.sales_count
    )
}

/// How the month compares with what the plan expected of it.
fn against_plan_text(forecast: &Forecast, v: &Variance, lang: Language) -> String {
    let brl = |v: f64| format_brl(v, lang);
    let percent = |p: Option<f64>| p.map(|p| format!(" ({p:+.1}%)")).unwrap_or_default();
    let (revenue, result) = (brl(forecast.revenue), brl(forecast.result));
    let revenue_gap = format!("{}{}", brl(v.revenue), percent(v.revenue_percent));
    let result_gap = format!("{}{}", brl(v.result), percent(v.result_percent));
    say!(
        lang,
        "consultant-results-interview-the-plan-expected-of-revenue",
        revenue,
        result,
        revenue_gap,
        result_gap
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resultados_starts_the_interview_in_either_language() {
        for start in ["resultados", "Resultados!", "results", "fechar o mês"] {
            assert!(starts(start), "{start}");
        }
        assert!(!starts("quais resultados posso esperar?"));
    }
}
