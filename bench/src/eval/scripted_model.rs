//! The deterministic stand-in for a model in `make eval` when no model is configured: it speaks
//! OpenAI's chat-completions format (non-streaming) and answers each persona's message as a model
//! following the default prompt would.

use std::{collections::HashMap, sync::Arc};

use axum::{Json, Router, extract::State, routing::post};
use serde_json::{Value, json};
use socio::locale::Language;

use super::personas::{Ask, PERSONAS, Turn};

/// The stand-in model's own voice in the persona's language. It plays the model, not the server,
/// so its words are not the server's catalogue's: they are what a model would write.
trait Speaks {
    fn choose<T>(self, pt_br: T, en: T) -> T;
}

impl Speaks for Language {
    fn choose<T>(self, pt_br: T, en: T) -> T {
        match self {
            Language::PtBr => pt_br,
            Language::En => en,
        }
    }
}

/// The deterministic stand-in for a model that follows the default prompt: on a persona's message
/// it calls the tool a good model would (save what was said, ask the server for the figure, look
/// the fact up), and words its answer from the tool's result in the person's language. Speaks
/// OpenAI's chat-completions format (non-streaming).
pub async fn start() -> anyhow::Result<String> {
    let turns: Arc<HashMap<&'static str, (&'static Turn, Language)>> = Arc::new(
        PERSONAS
            .iter()
            .flat_map(|p| {
                let later = p.later.map(|(_, turns)| turns).unwrap_or_default();
                p.turns.iter().chain(later).map(move |t| (t.says, (t, p.language)))
            })
            .collect(),
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
        return worded(last["content"].as_str().unwrap_or(""), language);
    }
    let said = last["content"].as_str().unwrap_or_default();
    match turns.get(said) {
        Some((turn, _)) => match turn.ask {
            Ask::Saves(section) => {
                let fields: Value = serde_json::from_str(turn.fields).unwrap_or_default();
                tool("save_plan_section", json!({"section": section, "fields": fields}))
            }
            Ask::Figure | Ask::Warns(_) | Ask::Acts => tool("analyze_finance", json!({})),
            Ask::Records => {
                tool("record_month_results", serde_json::from_str(turn.fields).unwrap_or_default())
            }
            Ask::Price => tool("price_product", serde_json::from_str(turn.fields).unwrap_or_default()),
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
                let topic = if said.contains("CBS") || said.contains("IBS") {
                    "tax_reform"
                } else if said.contains("Simples") || said.contains("Fator R") {
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

/// The answer a model following the default prompt words from a tool's result: every warning
/// first, then the figure, the fact with its date and source, or that it was saved.
fn worded(result_json: &str, language: Language) -> Json<Value> {
    let result: Value = serde_json::from_str(result_json).unwrap_or(Value::Null);
    // As the tool's note asks: every warning raised first, in the server's words.
    let warnings: Vec<&str> = result["warnings"]
        .as_array()
        .map(|w| w.iter().filter_map(|w| w["message"].as_str()).collect())
        .unwrap_or_default();
    let mut raised = if warnings.is_empty() { String::new() } else { format!("{}\n", warnings.join("\n")) };
    // As the finance tool's note asks: a MEI past the ceiling hears what to do first.
    if let Some(what_to_do) = result["meiCeilingPassed"]["whatToDo"].as_str() {
        raised = format!("{what_to_do}\n{raised}");
    }
    if let Some(sales) = result["breakEvenSalesPerMonth"].as_f64() {
        let revenue = result["breakEvenRevenuePerMonth"].as_f64().unwrap_or_default();
        return text(language.choose(
            format!("{raised}Seu ponto de equilíbrio é de {sales} vendas por mês, ou R$ {revenue:.2} de faturamento, pelas contas do seu plano, já com os impostos."),
            format!("{raised}Your break-even point is {sales} sales a month, or R$ {revenue:.2} in revenue, from your plan's numbers, taxes included."),
        ));
    }
    if let Some(price) = result["price"].as_f64() {
        let parts: Vec<String> = result["parts"]
            .as_array()
            .map(|p| {
                p.iter()
                    .map(|p| {
                        format!(
                            "{} R$ {:.2}",
                            p["name"].as_str().unwrap_or(""),
                            p["amount"].as_f64().unwrap_or(0.0)
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let total = result["invoiceTotal"].as_f64().unwrap_or(price);
        let said = if total > price + 0.005 {
            format!("{price:.2} + CBS/IBS = R$ {total:.2} {}", language.choose("na nota", "on the invoice"))
        } else {
            format!("{price:.2}")
        };
        let said = language.choose(said.replace('.', ","), said);
        return text(language.choose(
            format!(
                "Cobre R$ {said} por unidade ({}). {}",
                parts.join(", "),
                result["explanation"].as_str().unwrap_or("")
            ),
            format!(
                "Charge R$ {said} a unit ({}). {}",
                parts.join(", "),
                result["explanation"].as_str().unwrap_or("")
            ),
        ));
    }
    if !raised.is_empty() {
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
    text(
        language
            .choose(
                "Anotado no seu plano! O que mais você quer me contar?",
                "Saved to your plan! What else would you like to tell me?",
            )
            .into(),
    )
}
