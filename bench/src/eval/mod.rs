//! `make eval`: the consultant's quality harness. Nineteen Brazilian personas talk to the consultant
//! through the real pipeline — the `socio` binary, the WhatsApp inbox (dev mode), the reply jobs,
//! the model's tools — against the model configured in `LLM_BASE_URL` (with `LLM_API_KEY`,
//! `LLM_MODEL`), or, when none is, against a deterministic stand-in that answers as a model
//! following the default prompt would (it saves what each persona says, asks the server for every
//! figure and the facts file for every tax value, and quotes them), so that CI tests the harness
//! itself. Each persona is scored on: plan fields saved correctly, figures equal to the server's
//! maths (after the taxes of the plan's regime), tax and legal figures quoted with their date,
//! implausible figures questioned (the analysis' warnings raised), nobody called when nobody asked
//! for a person, what to do and by when for a MEI past the ceiling, WhatsApp-sized messages, and
//! the person's language. The personas of another day (Lucro Presumido in 2027, the MEI who passed
//! the ceiling in November and is an ME in January) talk to a server started on that day
//! (`SOCIO_DEV_CLOCK`), each on its own database, which the eval reads on the same day.

mod personas;
mod scripted_model;

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use serde_json::{Value, json};
use socio::{
    clock::Clock,
    db::Db,
    identity::{
        contact::Contact,
        phone::PhoneNumber,
        users::{Spelling, Tier, Users},
    },
    locale::Language,
    plan::{
        Plans,
        events::PlanEvents,
        money::{checks, finance, pricing::PlanFigures, taxes},
        month::YearMonth,
        sections::Step,
        store::{Plan, Source},
        tracking::{
            Results,
            calendar::{self, CeilingOutlook},
        },
    },
    proto::{json as proto_json, socio::v1 as pb},
};

use self::personas::{Ask, PERSONAS, Persona, Turn};
use crate::server::Server;

/// One persona's scores, each a share from 0 to 1 (None: nothing to score).
#[derive(Default)]
struct Score {
    fields: (u32, u32),
    figures: (u32, u32),
    dated: (u32, u32),
    warned: (u32, u32),
    no_handoff: (u32, u32),
    acted: (u32, u32),
    sized: (u32, u32),
    language: (u32, u32),
}

fn share((good, of): (u32, u32)) -> Option<f64> {
    (of > 0).then(|| f64::from(good) / f64::from(of))
}

fn tick(counter: &mut (u32, u32), ok: bool) {
    counter.1 += 1;
    if ok {
        counter.0 += 1;
    }
}

pub async fn eval(require_perfect: bool) -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("socio-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let (model, fake) = match std::env::var("LLM_BASE_URL") {
        Ok(url) if !url.is_empty() => (
            vec![
                ("LLM_BASE_URL", url),
                ("LLM_API_KEY", std::env::var("LLM_API_KEY").unwrap_or_default()),
                ("LLM_MODEL", std::env::var("LLM_MODEL").unwrap_or_else(|_| "gpt-4o-mini".into())),
                ("LLM_TIMEOUT_S", "60".into()),
            ],
            false,
        ),
        _ => (
            vec![
                ("LLM_BASE_URL", scripted_model::start().await?),
                ("LLM_API_KEY", "eval".into()),
                ("LLM_MODEL", "scripted".into()),
            ],
            true,
        ),
    };
    let mut env = vec![
        ("JWT_SECRET", "eval-secret-that-is-long-enough-0123456789".into()),
        ("WHATSAPP_BATCH_WINDOW_MS", "50".into()),
    ];
    env.extend(model);
    let http = reqwest::Client::new();
    println!(
        "Sócio eval — {} personas, model: {}",
        PERSONAS.len(),
        if fake { "the scripted stand-in (CI)" } else { "LLM_BASE_URL" }
    );
    let mut rows = Vec::new();
    // Today's personas share one server and database.
    let today = Talk::start(&env, &format!("sqlite://{}/eval.db", dir.display()), None).await?;
    for persona in PERSONAS.iter().filter(|p| p.on.is_none()) {
        let score = run_persona(&http, &today, persona).await.with_context(|| persona.name.to_owned())?;
        rows.push((persona.name, score));
    }
    today.stop()?;
    // A persona of another day has a database of its own and a server living on its day(s).
    for persona in PERSONAS.iter().filter(|p| p.on.is_some()) {
        let url = format!("sqlite://{}/{}.db", dir.display(), persona.phone.trim_start_matches('+'));
        let score = run_dated(&http, &env, &url, persona).await.with_context(|| persona.name.to_owned())?;
        rows.push((persona.name, score));
    }
    let _ = std::fs::remove_dir_all(&dir);
    print_table(&rows);
    let perfect = rows.iter().all(|(_, s)| {
        [s.fields, s.figures, s.dated, s.warned, s.no_handoff, s.acted, s.sized, s.language]
            .iter()
            .all(|c| share(*c).is_none_or(|x| x >= 1.0))
    });
    if require_perfect && !perfect {
        bail!("the harness's own run (scripted model) must score 100% everywhere");
    }
    Ok(())
}

/// A server and the eval's own handle on its database, both reading the same day.
struct Talk {
    server: Server,
    base: String,
    db: Db,
}

impl Talk {
    /// The `socio` binary on `database_url`, its clock started on `day` (YYYY-MM-DD, from 09:00 in
    /// São Paulo) when given, else at this process's now.
    async fn start(env: &[(&str, String)], database_url: &str, day: Option<&str>) -> anyhow::Result<Self> {
        let mut env = env.to_vec();
        env.push(("DATABASE_URL", database_url.to_owned()));
        // Without a day, today as this process reads it (under libfaketime too, whose preload the
        // server, started with a clean environment, does not get).
        let setting = day.map_or_else(|| socio::clock::rfc3339(Clock::system().now_ms()), str::to_owned);
        let clock = Clock::adjustable();
        clock.set(socio::config::dev_clock_start(&setting)?);
        env.push(("SOCIO_DEV_CLOCK", setting));
        let server = Server::start(&env).await?;
        let base = format!("http://{}", server.address);
        let db = Db::connect(database_url).await?.with_clock(clock);
        Ok(Self { server, base, db })
    }

    fn stop(self) -> anyhow::Result<()> {
        self.server.stop()
    }
}

/// A persona of another day: its first day's talk, and the later day's on the same database.
async fn run_dated(
    http: &reqwest::Client,
    env: &[(&str, String)],
    database_url: &str,
    persona: &Persona,
) -> anyhow::Result<Score> {
    let first = Talk::start(env, database_url, persona.on).await?;
    let user_id = register(&first.db, persona).await?;
    let mut conversation = Conversation::default();
    conversation.talk(http, &first, persona, &user_id, persona.turns).await?;
    first.stop()?;
    let Some((day, turns)) = persona.later else {
        let last = Talk::start(env, database_url, persona.on).await?;
        let score = conversation.score_fields(&last.db, &user_id).await;
        last.stop()?;
        return score;
    };
    let later = Talk::start(env, database_url, Some(day)).await?;
    conversation.talk(http, &later, persona, &user_id, turns).await?;
    let score = conversation.score_fields(&later.db, &user_id).await;
    later.stop()?;
    score
}

/// The persona as a Pro user, with the months they recorded before talking.
async fn register(db: &Db, persona: &Persona) -> anyhow::Result<String> {
    let phone = PhoneNumber::parse(persona.phone).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let users = Users::new(db.clone());
    let mut tx = db.begin().await?;
    let contact = Contact::phone(phone);
    let user =
        users.register_in(&mut tx, &contact, Spelling::Delivered, persona.name, persona.language).await?.user;
    users.set_tier_in(&mut tx, &user.id, Tier::Pro).await?;
    tx.commit().await?;
    let results = results_of(db);
    for (month, revenue, costs) in persona.recorded {
        let month = YearMonth::parse("month", month, db.now_ms()).map_err(|e| anyhow::anyhow!("{e:?}"))?;
        results.record_month(&user.id, month, (*revenue, *costs, 0), Source::Dashboard).await?;
    }
    Ok(user.id)
}

async fn run_persona(http: &reqwest::Client, talk: &Talk, persona: &Persona) -> anyhow::Result<Score> {
    let user_id = register(&talk.db, persona).await?;
    let mut conversation = Conversation::default();
    conversation.talk(http, talk, persona, &user_id, persona.turns).await?;
    conversation.score_fields(&talk.db, &user_id).await
}

/// One persona's talk so far: the scores, and the plan fields they said, checked at the end.
#[derive(Default)]
struct Conversation {
    score: Score,
    expected: HashMap<&'static str, serde_json::Map<String, Value>>,
}

impl Conversation {
    async fn talk(
        &mut self,
        http: &reqwest::Client,
        talk: &Talk,
        persona: &Persona,
        user_id: &str,
        turns: &[Turn],
    ) -> anyhow::Result<()> {
        let (db, score) = (&talk.db, &mut self.score);
        let lang = persona.language;
        for turn in turns {
            let reply = say(http, &talk.base, persona, turn.says).await?;
            if std::env::var_os("EVAL_SHOW").is_some() {
                println!("{} > {}\n< {reply}\n", persona.name, turn.says);
            }
            tick(&mut score.sized, reply.chars().count() <= 4096);
            tick(&mut score.language, speaks(&reply, lang));
            match turn.ask {
                Ask::Saves(section) => {
                    let fields: Value = serde_json::from_str(turn.fields)?;
                    self.expected
                        .entry(section)
                        .or_default()
                        .extend(fields.as_object().cloned().unwrap_or_default());
                }
                Ask::Figure => {
                    let break_even = server_break_even(db, user_id).await?;
                    let said = break_even.is_some_and(|n| {
                        let plain = format!("{n}");
                        let grouped = group_thousands(n, if lang == Language::En { ',' } else { '.' });
                        reply.contains(&plain) || reply.contains(&grouped)
                    });
                    tick(&mut score.figures, said);
                }
                Ask::TaxFact => tick(&mut score.dated, dated(&reply)),
                Ask::Price => {
                    // The server's price for the same figures and the saved plan, as people read it.
                    let request: pb::PriceRequest = proto_json::from_json(serde_json::from_str(turn.fields)?)
                        .map_err(|e| anyhow::anyhow!("{e}"))?;
                    let plan = plans_of(db).find(user_id).await?;
                    let figures = plan.as_ref().and_then(PlanFigures::of);
                    let priced = socio::plan::price_request::Request::parse(&request)
                        .and_then(|r| socio::plan::money::pricing::price(&r, figures.as_ref(), lang));
                    let written = |v: f64| {
                        let plain = format!("{v:.2}");
                        reply.contains(&plain) || reply.contains(&plain.replace('.', ","))
                    };
                    let said = priced.is_ok_and(|p| {
                        written(p.price) && (p.invoice_total <= p.price + 0.005 || written(p.invoice_total))
                    });
                    tick(&mut score.figures, said);
                }
                Ask::Warns(code) => {
                    let expected = saved_analysis(db, user_id)
                        .await?
                        .map(|(plan, inputs)| {
                            checks::warnings(Some(&plan), &inputs, &finance::analyse(&inputs), lang)
                        })
                        .unwrap_or_default();
                    let warning = expected.into_iter().find(|w| w.code == code);
                    tick(&mut score.warned, warning.is_some_and(|w| reply.contains(&w.message)));
                }
                Ask::NoHandoff => {
                    let called: i64 = sqlx::query_scalar("select count(*) from handoffs where user_id = $1")
                        .bind(user_id)
                        .fetch_one(db.pool())
                        .await?;
                    tick(&mut score.no_handoff, called == 0);
                }
                Ask::Records => {
                    let said: Value = serde_json::from_str(turn.fields)?;
                    let months = results_of(db).months(user_id).await?;
                    let kept = months.iter().any(|m| {
                        Some(m.month.key().as_str()) == said["month"].as_str()
                            && Some(m.revenue) == said["revenue"].as_f64()
                            && Some(m.costs) == said["costs"].as_f64()
                    });
                    tick(&mut score.fields, kept);
                }
                Ask::Acts => {
                    let outlook = results_of(db).outlook(user_id).await?;
                    let what_to_do = match outlook.ceiling {
                        Some(CeilingOutlook::Passed(over) | CeilingOutlook::YearOver(over)) => {
                            Some(calendar::what_to_do(&over, outlook.today, lang))
                        }
                        Some(CeilingOutlook::Year(_)) | None => None,
                    };
                    tick(&mut score.acted, what_to_do.is_some_and(|w| reply.contains(&w)));
                }
            }
        }
        Ok(())
    }

    /// The plan fields said, against what was saved: the last of the persona's scores.
    async fn score_fields(mut self, db: &Db, user_id: &str) -> anyhow::Result<Score> {
        for (section, fields) in std::mem::take(&mut self.expected) {
            let saved = saved_section(db, user_id, section).await?;
            for (field, value) in fields {
                let got = &saved[&field];
                let ok = match (&value, got) {
                    (Value::Number(a), Value::Number(b)) => {
                        (a.as_f64().unwrap_or(0.0) - b.as_f64().unwrap_or(f64::NAN)).abs() < 0.01
                    }
                    (Value::String(_), Value::String(b)) => !b.trim().is_empty(),
                    _ => false,
                };
                tick(&mut self.score.fields, ok);
            }
        }
        Ok(self.score)
    }
}

fn plans_of(db: &Db) -> Plans {
    Plans::new(db.clone(), PlanEvents::default())
}

fn results_of(db: &Db) -> Results {
    Results::new(plans_of(db))
}

/// Writes as the persona on the simulator's inbound endpoint and waits for the product's reply.
async fn say(http: &reqwest::Client, base: &str, persona: &Persona, text: &str) -> anyhow::Result<String> {
    let outbox = format!("{base}/api/dev/whatsapp/outbox?phone={}", persona.phone.replace('+', "%2B"));
    let replies = |body: Value| -> Vec<String> {
        body["data"]["messages"]
            .as_array()
            .map(|m| {
                m.iter()
                    .filter(|m| m["kind"] == "text" || m["kind"] == "interactive")
                    .filter_map(|m| m["text"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let before = replies(http.get(&outbox).send().await?.json().await?).len();
    let sent = http
        .post(format!("{base}/api/dev/whatsapp/inbound"))
        .json(&json!({"from": persona.phone, "name": persona.name, "text": text}))
        .send()
        .await?;
    if !sent.status().is_success() {
        bail!("the inbound endpoint answered {}", sent.status());
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let now = replies(http.get(&outbox).send().await?.json().await?);
        if now.len() > before {
            return Ok(now[before..].join("\n"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("no reply to {text:?} within 120 s")
}

async fn saved_section(db: &Db, user_id: &str, section: &str) -> anyhow::Result<Value> {
    let data: Option<String> = sqlx::query_scalar(
        "select s.data from plan_sections s join business_plans p on p.id = s.plan_id where p.user_id = $1 and s.step = $2",
    )
    .bind(user_id)
    .bind(section)
    .fetch_optional(db.pool())
    .await?;
    Ok(data.map(|d| serde_json::from_str(&d)).transpose()?.unwrap_or(json!({})))
}

/// The saved plan and its finance inputs as the server computes them on the day it is read, with
/// the taxes of its regime (and of what a MEI past the ceiling became), as the finance tool does.
async fn saved_analysis(db: &Db, user_id: &str) -> anyhow::Result<Option<(Plan, finance::Inputs)>> {
    let Some(plan) = plans_of(db).find(user_id).await? else {
        return Ok(None);
    };
    let data: pb::FinanceData = proto_json::from_json(plan.section(Step::Finance).data.clone())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(finance::finance_inputs(&data).map(|mut inputs| {
        let revenue = inputs.average_ticket * inputs.expected_sales_per_month;
        inputs.tax = taxes::of_plan(&plan, revenue, &data);
        (plan, inputs)
    }))
}

/// The break-even in sales a month, as the server's maths computes it from what was saved (after
/// the taxes of the plan's regime).
async fn server_break_even(db: &Db, user_id: &str) -> anyhow::Result<Option<u64>> {
    Ok(saved_analysis(db, user_id)
        .await?
        .and_then(|(_, inputs)| finance::analyse(&inputs).break_even_sales)
        .map(|s| s.ceil() as u64))
}

fn group_thousands(n: u64, separator: char) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(separator);
        }
        out.push(c);
    }
    out
}

/// Whether a reply quoting a value says when it was true: a year, or a full date.
fn dated(reply: &str) -> bool {
    reply.split(|c: char| !c.is_ascii_digit()).any(|n| n.len() == 4 && n.starts_with("20"))
}

/// Whether a reply is in the person's language, by the common words each uses.
fn speaks(reply: &str, language: Language) -> bool {
    let lower = format!(" {} ", reply.to_lowercase());
    let count = |words: &[&str]| words.iter().filter(|w| lower.contains(*w)).count();
    let pt = count(&[" você ", " seu ", " sua ", " para ", " não ", " é ", " com ", " por mês", " vendas"]);
    let en = count(&[" you ", " your ", " the ", " for ", " is ", " with ", " a month", " sales"]);
    match language {
        Language::PtBr => pt >= en,
        Language::En => en > pt,
    }
}

fn print_table(rows: &[(&str, Score)]) {
    let cell = |c: (u32, u32)| share(c).map_or("—".to_owned(), |x| format!("{:.0}%", x * 100.0));
    println!(
        "\n| persona | plan fields | figures = server's (after taxes) | dated facts | warnings raised | no false handoff | what to do, by when | WhatsApp-sized | language |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (name, s) in rows {
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(s.fields),
            cell(s.figures),
            cell(s.dated),
            cell(s.warned),
            cell(s.no_handoff),
            cell(s.acted),
            cell(s.sized),
            cell(s.language)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_without_its_date_is_not_dated() {
        assert!(!dated("O DAS do MEI é R$ 82,05 por mês."));
        assert!(dated("O DAS do MEI é R$ 82,05 por mês (valores de 2026-01-05)."));
        assert!(dated("valid since March 2026"));
    }

    #[test]
    fn a_reply_is_judged_in_the_language_it_is_written_in() {
        assert!(speaks("Your break-even point is 240 sales a month.", Language::En));
        assert!(!speaks("Your break-even point is 240 sales a month.", Language::PtBr));
        assert!(speaks("Seu ponto de equilíbrio é de 240 vendas por mês.", Language::PtBr));
        assert!(!speaks("Seu ponto de equilíbrio é de 240 vendas por mês.", Language::En));
    }

    #[test]
    fn a_figure_is_found_however_thousands_are_written() {
        assert_eq!(group_thousands(13_334, '.'), "13.334");
        assert_eq!(group_thousands(1_200_000, ','), "1,200,000");
        assert_eq!(group_thousands(534, '.'), "534");
    }

    #[test]
    fn every_persona_is_brazilian_small_business_with_a_figure_and_a_fact_to_check() {
        assert_eq!(PERSONAS.len(), 19);
        for persona in PERSONAS {
            let later = persona.later.map(|(_, turns)| turns).unwrap_or_default();
            let asks = |ask: Ask| persona.turns.iter().chain(later).any(|t| t.ask == ask);
            assert!(asks(Ask::Figure) && asks(Ask::TaxFact), "{}", persona.name);
            assert!(
                persona.on.is_some() || persona.later.is_none(),
                "{}: a later day follows a first",
                persona.name
            );
            assert!(PhoneNumber::parse(persona.phone).is_ok(), "{}", persona.name);
        }
    }
}
