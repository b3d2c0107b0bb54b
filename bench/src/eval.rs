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

use std::{
    collections::HashMap,
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use axum::{Json, Router, extract::State, routing::post};
use serde_json::{Value, json};
use socio::{
    db::Db,
    identity::{
        contact::Contact,
        phone::PhoneNumber,
        users::{self, Spelling, Tier},
    },
    locale::Language,
    plan::{document, finance},
    proto::{json as proto_json, socio::v1 as pb},
};

use crate::server::Server;

/// What a persona's message asks of the consultant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    /// Plan data: the fields it should be saved as.
    Saves(&'static str),
    /// A figure the server computes (break-even).
    Figure,
    /// A tax or legal value, which must come with its date.
    TaxFact,
    /// A figure the server questions: the reply must raise the analysis' warning (its code).
    Warns(&'static str),
    /// Words that describe the business, not a wish for a person: nobody is called.
    NoHandoff,
}

struct Turn {
    says: &'static str,
    ask: Ask,
    /// For `Saves`: the section's fields as JSON.
    fields: &'static str,
}

struct Persona {
    name: &'static str,
    phone: &'static str,
    language: Language,
    turns: &'static [Turn],
}

macro_rules! save {
    ($says:literal, $section:literal, $fields:literal) => {
        Turn { says: $says, ask: Ask::Saves($section), fields: $fields }
    };
}
macro_rules! ask {
    ($says:literal, $ask:ident) => {
        Turn { says: $says, ask: Ask::$ask, fields: "" }
    };
}
macro_rules! warns {
    ($says:literal, $code:literal) => {
        Turn { says: $says, ask: Ask::Warns($code), fields: "" }
    };
}

const PERSONAS: &[Persona] = &[
    Persona {
        name: "Confeitaria (Ana, Campinas)",
        phone: "+5519990010001",
        language: Language::PtBr,
        turns: &[
            save!(
                "Quero abrir uma confeitaria de bolos caseiros em Campinas",
                "idea",
                r#"{"businessIdea": "Confeitaria de bolos caseiros em Campinas"}"#
            ),
            save!(
                "Vou gastar R$ 30.000 para começar, com custos fixos de R$ 6.000 por mês",
                "finance",
                r#"{"startupCosts": 30000, "monthlyFixedCosts": 6000}"#
            ),
            save!(
                "Cada bolo sai por R$ 80 e custa R$ 30 para fazer; espero vender 200 por mês",
                "finance",
                r#"{"averageTicket": 80, "variableCostPerSale": 30, "expectedSalesPerMonth": 200}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Quanto eu pago de DAS se for MEI?", TaxFact),
        ],
    },
    Persona {
        name: "Manicure MEI (Bia, Recife)",
        phone: "+5581990010002",
        language: Language::PtBr,
        turns: &[
            save!(
                "Sou manicure e quero atender em domicílio no Recife",
                "idea",
                r#"{"businessIdea": "Manicure em domicílio no Recife"}"#
            ),
            save!(
                "Meu atendimento custa R$ 50 e gasto R$ 10 de material; faço 120 por mês",
                "finance",
                r#"{"averageTicket": 50, "variableCostPerSale": 10, "expectedSalesPerMonth": 120}"#
            ),
            save!(
                "Gasto R$ 1.500 por mês fixo com transporte e celular",
                "finance",
                r#"{"monthlyFixedCosts": 1500}"#
            ),
            ask!("Quantos atendimentos preciso para empatar?", Figure),
            ask!("Qual é o limite de faturamento do MEI?", TaxFact),
        ],
    },
    Persona {
        name: "Oficina mecânica (Carlos, BH)",
        phone: "+5531990010003",
        language: Language::PtBr,
        turns: &[
            save!(
                "Tenho uma oficina mecânica em Belo Horizonte e quero crescer",
                "idea",
                r#"{"businessIdea": "Oficina mecânica em Belo Horizonte", "stage": "running"}"#
            ),
            save!("Meus custos fixos são R$ 18.000 por mês", "finance", r#"{"monthlyFixedCosts": 18000}"#),
            save!(
                "O serviço médio é R$ 450, com R$ 200 de peças; faço 90 serviços por mês",
                "finance",
                r#"{"averageTicket": 450, "variableCostPerSale": 200, "expectedSalesPerMonth": 90}"#
            ),
            ask!("Estou acima do ponto de equilíbrio?", Figure),
            ask!("Posso ser MEI com dois funcionários?", TaxFact),
        ],
    },
    Persona {
        name: "Loja online (Dani, SP)",
        phone: "+5511990010004",
        language: Language::PtBr,
        turns: &[
            save!(
                "Quero vender roupas de ginástica numa loja online",
                "idea",
                r#"{"businessIdea": "Loja online de roupas de ginástica"}"#
            ),
            save!(
                "Meus clientes são mulheres de 20 a 40 anos que treinam",
                "market",
                r#"{"targetCustomer": "Mulheres de 20 a 40 anos que treinam"}"#
            ),
            save!(
                "Cada peça sai por R$ 120 e me custa R$ 55; quero vender 300 por mês com R$ 9.000 de custo fixo",
                "finance",
                r#"{"averageTicket": 120, "variableCostPerSale": 55, "expectedSalesPerMonth": 300, "monthlyFixedCosts": 9000}"#
            ),
            ask!("Qual faturamento preciso para não ter prejuízo?", Figure),
            ask!("Como funciona o Simples Nacional para loja?", TaxFact),
        ],
    },
    Persona {
        name: "Food truck (Edu, Florianópolis)",
        phone: "+5548990010005",
        language: Language::PtBr,
        turns: &[
            save!(
                "Vou abrir um food truck de tapioca na praia em Florianópolis",
                "idea",
                r#"{"businessIdea": "Food truck de tapioca em Florianópolis"}"#
            ),
            save!(
                "O investimento é R$ 90.000 e o capital de giro R$ 10.000",
                "finance",
                r#"{"startupCosts": 90000, "workingCapital": 10000}"#
            ),
            save!(
                "A tapioca custa R$ 25, gasto R$ 9 em cada, vendo 1.200 por mês e tenho R$ 12.000 de custo fixo",
                "finance",
                r#"{"averageTicket": 25, "variableCostPerSale": 9, "expectedSalesPerMonth": 1200, "monthlyFixedCosts": 12000}"#
            ),
            ask!("Em quantas vendas eu empato?", Figure),
            ask!("Preciso de alvará da vigilância sanitária?", TaxFact),
        ],
    },
    Persona {
        name: "Consultoria (Fábio, Porto Alegre)",
        phone: "+5551990010006",
        language: Language::PtBr,
        turns: &[
            save!(
                "Quero abrir uma consultoria de RH para pequenas empresas",
                "idea",
                r#"{"businessIdea": "Consultoria de RH para pequenas empresas"}"#
            ),
            save!(
                "Cobro R$ 3.000 por projeto, com R$ 300 de custo, e faço 4 projetos por mês; meu fixo é R$ 4.000",
                "finance",
                r#"{"averageTicket": 3000, "variableCostPerSale": 300, "expectedSalesPerMonth": 4, "monthlyFixedCosts": 4000}"#
            ),
            save!("Quero abrir como SLU", "legal", r#"{"businessType": "slu"}"#),
            ask!("Quantos projetos preciso fechar para cobrir os custos?", Figure),
            ask!("O que é o Fator R?", TaxFact),
        ],
    },
    Persona {
        name: "Pet shop (Gabi, Salvador)",
        phone: "+5571990010007",
        language: Language::PtBr,
        turns: &[
            save!(
                "Vou abrir um pet shop com banho e tosa em Salvador",
                "idea",
                r#"{"businessIdea": "Pet shop com banho e tosa em Salvador"}"#
            ),
            save!(
                "O ticket médio é R$ 70 com R$ 20 de custo, 600 atendimentos por mês",
                "finance",
                r#"{"averageTicket": 70, "variableCostPerSale": 20, "expectedSalesPerMonth": 600}"#
            ),
            save!(
                "O aluguel e a equipe custam R$ 21.000 por mês",
                "finance",
                r#"{"monthlyFixedCosts": 21000}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio em faturamento?", Figure),
            ask!("Quanto custa o DAS do MEI de serviços?", TaxFact),
        ],
    },
    Persona {
        name: "Gym (Hugo, São Paulo, in English)",
        phone: "+5511990010008",
        language: Language::En,
        turns: &[
            save!(
                "I want to open a small functional training gym in São Paulo",
                "idea",
                r#"{"businessIdea": "Small functional training gym in São Paulo"}"#
            ),
            save!(
                "The membership is R$ 180 a month, each member costs me R$ 30, and I expect 250 members",
                "finance",
                r#"{"averageTicket": 180, "variableCostPerSale": 30, "expectedSalesPerMonth": 250}"#
            ),
            save!("Rent and staff cost R$ 25,000 a month", "finance", r#"{"monthlyFixedCosts": 25000}"#),
            ask!("How many members do I need to break even?", Figure),
            ask!("What is the MEI revenue limit?", TaxFact),
        ],
    },
    Persona {
        name: "Padaria com atendente (Iara, Recife)",
        phone: "+5581990010009",
        language: Language::PtBr,
        turns: &[
            save!("Tenho uma padaria no Recife", "idea", r#"{"businessIdea": "Padaria no Recife"}"#),
            save!(
                "Somos 4 pessoas: eu, um padeiro, um atendente e um entregador",
                "hr",
                r#"{"teamSize": 4}"#
            ),
            ask!("Queria que o atendente falasse com os clientes pelo WhatsApp", NoHandoff),
            save!(
                "Pão a R$ 18 o quilo, custa R$ 7; vendo 2.000 kg por mês; fixos de R$ 18.000",
                "finance",
                r#"{"averageTicket": 18, "variableCostPerSale": 7, "expectedSalesPerMonth": 2000, "monthlyFixedCosts": 18000}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Quanto é o DAS do MEI?", TaxFact),
        ],
    },
    Persona {
        name: "MEI de R$ 120 mil (Júlia, Goiânia)",
        phone: "+5562990010010",
        language: Language::PtBr,
        turns: &[
            save!(
                "Sou MEI de comércio, vendo roupas em Goiânia",
                "legal",
                r#"{"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}"#
            ),
            save!(
                "Cada peça sai por R$ 100, custa R$ 40, e quero vender 100 por mês; fixos de R$ 2.000",
                "finance",
                r#"{"averageTicket": 100, "variableCostPerSale": 40, "expectedSalesPerMonth": 100, "monthlyFixedCosts": 2000}"#
            ),
            warns!("Como estão meus números?", "mei_ceiling"),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Qual é o limite de faturamento do MEI?", TaxFact),
        ],
    },
    Persona {
        name: "Plano no prejuízo (Kátia, Manaus)",
        phone: "+5592990010011",
        language: Language::PtBr,
        turns: &[
            save!("Quero vender açaí em Manaus", "idea", r#"{"businessIdea": "Açaí em Manaus"}"#),
            save!(
                "O copo sai por R$ 35 e custa R$ 900 para fazer, vendo 300 por mês; fixos de R$ 3.000",
                "finance",
                r#"{"averageTicket": 35, "variableCostPerSale": 900, "expectedSalesPerMonth": 300, "monthlyFixedCosts": 3000}"#
            ),
            warns!("O que você acha dos meus números?", "cost_above_price"),
            save!("Errei: o copo custa R$ 9", "finance", r#"{"variableCostPerSale": 9}"#),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Quanto pago de DAS como MEI?", TaxFact),
        ],
    },
    Persona {
        name: "Serviço no Simples com Fator R (Léo, Curitiba)",
        phone: "+5541990010012",
        language: Language::PtBr,
        turns: &[
            save!(
                "Tenho uma agência de design em Curitiba, uma LTDA no Simples Nacional, só serviços",
                "legal",
                r#"{"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "services"}"#
            ),
            save!(
                "Cobro R$ 3.000 por projeto, custa R$ 300, faço 10 por mês; fixos de R$ 12.000 e folha de R$ 9.000",
                "finance",
                r#"{"averageTicket": 3000, "variableCostPerSale": 300, "expectedSalesPerMonth": 10, "monthlyFixedCosts": 12000, "monthlyPayroll": 9000}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Como funciona o Fator R no Simples?", TaxFact),
        ],
    },
];

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
                ("LLM_BASE_URL", start_scripted_model().await?),
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
    let mut tx = db.begin().await?;
    let contact = Contact::phone(phone);
    let user =
        users::register_contact(&mut tx, &contact, Spelling::Delivered, persona.name, persona.language)
            .await?
            .user;
    users::set_tier(&mut tx, &user.id, Tier::Pro).await?;
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
            Ask::Warns(code) => {
                let lang = persona.language;
                let plan = saved_plan_inputs(db, &user.id).await?;
                let expected = plan.map(|(inputs, _)| {
                    socio::plan::checks::warnings(None, &inputs, &finance::analyse(&inputs), lang)
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
    Ok(document::finance_inputs(&data).map(|mut inputs| {
        let revenue = inputs.average_ticket * inputs.expected_sales_per_month;
        inputs.tax = socio::plan::taxes::basis(&legal, revenue, data.monthly_payroll, None);
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

/// The deterministic stand-in for a model that follows the default prompt: on a persona's message
/// it calls the tool a good model would (save what was said, ask the server for the figure, look
/// the fact up), and words its answer from the tool's result in the person's language. Speaks
/// OpenAI's chat-completions format (non-streaming).
async fn start_scripted_model() -> anyhow::Result<String> {
    let turns: Arc<HashMap<&'static str, (&'static Turn, Language)>> = Arc::new(
        PERSONAS.iter().flat_map(|p| p.turns.iter().map(move |t| (t.says, (t, p.language)))).collect(),
    );
    let app = Router::new().route("/v1/chat/completions", post(scripted)).with_state(turns);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/v1", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(url)
}

type Turns = Arc<HashMap<&'static str, (&'static Turn, Language)>>;

fn completion(message: Value) -> Json<Value> {
    Json(json!({"id": "chatcmpl-eval", "object": "chat.completion", "model": "scripted",
                "choices": [{"index": 0, "message": message, "finish_reason": if message["tool_calls"].is_null() { "stop" } else { "tool_calls" }}]}))
}

fn text(content: String) -> Json<Value> {
    completion(json!({"role": "assistant", "content": content}))
}

fn tool(name: &str, arguments: Value) -> Json<Value> {
    completion(json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_eval", "type": "function", "function": {"name": name, "arguments": arguments.to_string()}}]}))
}

async fn scripted(State(turns): State<Turns>, Json(body): Json<Value>) -> Json<Value> {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let language = if messages
        .iter()
        .any(|m| m["role"] == "system" && m["content"].as_str().unwrap_or("").contains("language en;"))
    {
        Language::En
    } else {
        Language::PtBr
    };
    let last = messages.last().cloned().unwrap_or_default();
    if last["role"] == "tool" {
        let result: Value =
            serde_json::from_str(last["content"].as_str().unwrap_or("")).unwrap_or(Value::Null);
        // As the tool's note asks: every warning raised first, in the server's words.
        let warnings: Vec<&str> = result["warnings"]
            .as_array()
            .map(|w| w.iter().filter_map(|w| w["message"].as_str()).collect())
            .unwrap_or_default();
        let raised = if warnings.is_empty() { String::new() } else { format!("{}\n", warnings.join("\n")) };
        if let Some(sales) = result["breakEvenSalesPerMonth"].as_f64() {
            let revenue = result["breakEvenRevenuePerMonth"].as_f64().unwrap_or_default();
            return text(language.choose(
                format!("{raised}Seu ponto de equilíbrio é de {sales} vendas por mês, ou R$ {revenue:.2} de faturamento, pelas contas do seu plano, já com os impostos."),
                format!("{raised}Your break-even point is {sales} sales a month, or R$ {revenue:.2} in revenue, from your plan's numbers, taxes included."),
            ));
        }
        if !warnings.is_empty() {
            return text(format!(
                "{raised}{}",
                language.choose(
                    "Quer corrigir algum desses números?",
                    "Do you want to correct any of these figures?"
                )
            ));
        }
        if let Some(fact) = result["facts"].as_array().and_then(|f| f.first()) {
            return text(format!(
                "{} ({} {}; {} {})",
                fact["fact"].as_str().unwrap_or_default(),
                language.choose("valores de", "as of"),
                fact["asOf"].as_str().unwrap_or_default(),
                language.choose("fonte:", "source:"),
                fact["source"].as_str().unwrap_or_default()
            ));
        }
        return text(
            language
                .choose(
                    "Anotado no seu plano! O que mais você quer me contar?",
                    "Saved to your plan! What else would you like to tell me?",
                )
                .into(),
        );
    }
    let said = last["content"].as_str().unwrap_or_default();
    match turns.get(said) {
        Some((turn, _)) => match turn.ask {
            Ask::Saves(section) => {
                let fields: Value = serde_json::from_str(turn.fields).unwrap_or_default();
                tool("save_plan_section", json!({"section": section, "fields": fields}))
            }
            Ask::Figure | Ask::Warns(_) => tool("analyze_finance", json!({})),
            // A description of the business: no request_human, a plain answer.
            Ask::NoHandoff => text(
                language
                    .choose(
                        "Boa ideia: o atendente pode responder os clientes pelo WhatsApp da padaria.",
                        "Good idea: the attendant can answer customers on the business's WhatsApp.",
                    )
                    .into(),
            ),
            Ask::TaxFact => {
                let topic = if said.contains("Simples") || said.contains("Fator R") {
                    "simples"
                } else if said.contains("alvará") {
                    "licences"
                } else {
                    "mei"
                };
                tool("lookup_business_facts", json!({"topic": topic}))
            }
        },
        None => text(
            language
                .choose("Entendi! Vamos seguir com o seu plano.", "Got it! Let's keep going with your plan.")
                .into(),
        ),
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
        assert_eq!(PERSONAS.len(), 12);
        for persona in PERSONAS {
            assert!(persona.turns.iter().any(|t| t.ask == Ask::Figure), "{}", persona.name);
            assert!(persona.turns.iter().any(|t| t.ask == Ask::TaxFact), "{}", persona.name);
            assert!(PhoneNumber::parse(persona.phone).is_ok(), "{}", persona.name);
        }
    }
}
