//! `make eval`: the consultant's quality harness. Twelve Brazilian personas talk to the consultant
//! through the real pipeline — the `socio` binary, the WhatsApp inbox (dev mode), the reply jobs,
//! the model's tools — against the model configured in `LLM_BASE_URL` (with `LLM_API_KEY`,
//! `LLM_MODEL`), or, when none is, against a deterministic stand-in that answers as a model
//! following the default prompt would (it saves what each persona says, asks the server for every
//! figure and the facts file for every tax value, and quotes them), so that CI tests the harness
//! itself. Each persona is scored on: plan fields saved correctly, figures equal to the server's
//! maths (after the taxes of the plan's regime), tax and legal figures quoted with their date,
//! implausible figures questioned (the analysis' warnings raised), nobody called when nobody asked
//! for a person, WhatsApp-sized messages, and the person's language.

mod personas;
mod scripted_model;

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use serde_json::{Value, json};
use socio::{
    db::Db,
    identity::{
        contact::Contact,
        phone::PhoneNumber,
        users::{Spelling, Tier, Users},
    },
    locale::Language,
    plan::money::finance,
    proto::{json as proto_json, socio::v1 as pb},
};

use self::personas::{Ask, PERSONAS, Persona};
use crate::server::Server;

/// One persona's scores, each a share from 0 to 1 (None: nothing to score).
#[derive(Default)]
struct Score {
    fields: (u32, u32),
    figures: (u32, u32),
    dated: (u32, u32),
    warned: (u32, u32),
    no_handoff: (u32, u32),
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
    let database_url = format!("sqlite://{}/eval.db", dir.display());
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
        ("DATABASE_URL", database_url.clone()),
        ("JWT_SECRET", "eval-secret-that-is-long-enough-0123456789".into()),
        ("WHATSAPP_BATCH_WINDOW_MS", "50".into()),
    ];
    env.extend(model);
    let server = Server::start(&env).await?;
    let base = format!("http://{}", server.address);
    let db = Db::connect(&database_url).await?;
    let http = reqwest::Client::new();
    println!(
        "Sócio eval — {} personas, model: {}",
        PERSONAS.len(),
        if fake { "the scripted stand-in (CI)" } else { "LLM_BASE_URL" }
    );
    let mut rows = Vec::new();
    for persona in PERSONAS {
        let score = run_persona(&http, &base, &db, persona).await.with_context(|| persona.name.to_owned())?;
        rows.push((persona.name, score));
    }
    server.stop()?;
    let _ = std::fs::remove_dir_all(&dir);
    print_table(&rows);
    let perfect = rows.iter().all(|(_, s)| {
        [s.fields, s.figures, s.dated, s.warned, s.no_handoff, s.sized, s.language]
            .iter()
            .all(|c| share(*c).is_none_or(|x| x >= 1.0))
    });
    if require_perfect && !perfect {
        bail!("the harness's own run (scripted model) must score 100% everywhere");
    }
    Ok(())
}

async fn run_persona(
    http: &reqwest::Client,
    base: &str,
    db: &Db,
    persona: &Persona,
) -> anyhow::Result<Score> {
    let phone = PhoneNumber::parse(persona.phone).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let users = Users::new(db.clone());
    let mut tx = db.begin().await?;
    let contact = Contact::phone(phone);
    let user =
        users.register_in(&mut tx, &contact, Spelling::Delivered, persona.name, persona.language).await?.user;
    users.set_tier_in(&mut tx, &user.id, Tier::Pro).await?;
    tx.commit().await?;
    let mut score = Score::default();
    let mut expected: HashMap<&str, serde_json::Map<String, Value>> = HashMap::new();
    for turn in persona.turns {
        let reply = say(http, base, persona, turn.says).await?;
        tick(&mut score.sized, reply.chars().count() <= 4096);
        tick(&mut score.language, speaks(&reply, persona.language));
        match turn.ask {
            Ask::Saves(section) => {
                let fields: Value = serde_json::from_str(turn.fields)?;
                expected.entry(section).or_default().extend(fields.as_object().cloned().unwrap_or_default());
            }
            Ask::Figure => {
                let break_even = server_break_even(db, &user.id).await?;
                let said = break_even.is_some_and(|n| {
                    let plain = format!("{n}");
                    let grouped =
                        group_thousands(n, if persona.language == Language::En { ',' } else { '.' });
                    reply.contains(&plain) || reply.contains(&grouped)
                });
                tick(&mut score.figures, said);
            }
            Ask::TaxFact => tick(&mut score.dated, dated(&reply)),
            Ask::Price => {
                // The server's price for the same figures and the saved plan, as people read it.
                let request: pb::PriceRequest = proto_json::from_json(serde_json::from_str(turn.fields)?)
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                let figures = saved_plan_inputs(db, &user.id).await?.map(|(inputs, _)| {
                    let month = finance::analyse(&inputs).month;
                    socio::plan::money::pricing::PlanFigures {
                        monthly_revenue: month.revenue,
                        monthly_fixed_costs: inputs.monthly_fixed_costs,
                        average_ticket: inputs.average_ticket,
                        margin: if month.revenue > 0.0 { month.result / month.revenue } else { 0.0 },
                        tax: inputs.tax,
                    }
                });
                let priced = socio::plan::price_request::Request::parse(&request)
                    .and_then(|r| socio::plan::money::pricing::price(&r, figures.as_ref(), persona.language));
                let said = priced.is_ok_and(|p| {
                    let plain = format!("{:.2}", p.price);
                    reply.contains(&plain) || reply.contains(&plain.replace('.', ","))
                });
                tick(&mut score.figures, said);
            }
            Ask::Warns(code) => {
                let lang = persona.language;
                let plan = saved_plan_inputs(db, &user.id).await?;
                let expected = plan.map(|(inputs, _)| {
                    socio::plan::money::checks::warnings(None, &inputs, &finance::analyse(&inputs), lang)
                });
                let warning = expected.unwrap_or_default().into_iter().find(|w| w.code == code);
                tick(&mut score.warned, warning.is_some_and(|w| reply.contains(&w.message)));
            }
            Ask::NoHandoff => {
                let called: i64 = sqlx::query_scalar("select count(*) from handoffs where user_id = $1")
                    .bind(&user.id)
                    .fetch_one(db.pool())
                    .await?;
                tick(&mut score.no_handoff, called == 0);
            }
        }
    }
    for (section, fields) in expected {
        let saved = saved_section(db, &user.id, section).await?;
        for (field, value) in fields {
            let got = &saved[&field];
            let ok = match (&value, got) {
                (Value::Number(a), Value::Number(b)) => {
                    (a.as_f64().unwrap_or(0.0) - b.as_f64().unwrap_or(f64::NAN)).abs() < 0.01
                }
                (Value::String(_), Value::String(b)) => !b.trim().is_empty(),
                _ => false,
            };
            tick(&mut score.fields, ok);
        }
    }
    Ok(score)
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

/// The finance inputs as the server computes them from what was saved, with the taxes of the
/// saved regime and activity.
async fn saved_plan_inputs(db: &Db, user_id: &str) -> anyhow::Result<Option<(finance::Inputs, Value)>> {
    let saved = saved_section(db, user_id, "finance").await?;
    let legal = saved_section(db, user_id, "legal").await?;
    let data: pb::FinanceData = proto_json::from_json(saved).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(finance::finance_inputs(&data).map(|mut inputs| {
        let revenue = inputs.average_ticket * inputs.expected_sales_per_month;
        let payroll = socio::plan::money::taxes::Payroll::of(&data);
        inputs.tax = socio::plan::money::taxes::basis(&legal, revenue, &payroll, None, db.now_ms());
        (inputs, legal)
    }))
}

/// The break-even in sales a month, as the server's maths computes it from what was saved (after
/// the taxes of the plan's regime).
async fn server_break_even(db: &Db, user_id: &str) -> anyhow::Result<Option<u64>> {
    Ok(saved_plan_inputs(db, user_id)
        .await?
        .and_then(|(inputs, _)| finance::analyse(&inputs).break_even_sales)
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
        "\n| persona | plan fields | figures = server's (after taxes) | dated facts | warnings raised | no false handoff | WhatsApp-sized | language |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, s) in rows {
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} |",
            cell(s.fields),
            cell(s.figures),
            cell(s.dated),
            cell(s.warned),
            cell(s.no_handoff),
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
        assert_eq!(PERSONAS.len(), 17);
        for persona in PERSONAS {
            assert!(persona.turns.iter().any(|t| t.ask == Ask::Figure), "{}", persona.name);
            assert!(persona.turns.iter().any(|t| t.ask == Ask::TaxFact), "{}", persona.name);
            assert!(PhoneNumber::parse(persona.phone).is_ok(), "{}", persona.name);
        }
    }
}
