//! A pricing question in words, for the offline guide and the model's `price_product` tool:
//! "Quanto devo cobrar por um bolo de R$ 30 de custo, 4 % de cartão, 25 % de margem?" — the cost
//! and each share read as Brazilians type them ("R$ 30", "4%", "3,5 %", "25 por cento"), each share
//! named by the words beside it (cartão, maquininha, comissão, margem), then priced by the plan's one
//! computation (`plan::money::pricing`) or answered with what is missing.

use serde_json::{Value as Json, json};

use super::parse;
use crate::{
    identity::search::fold,
    locale::Language,
    plan::{
        money::{
            format_brl,
            pricing::{self, PlanFigures},
        },
        price_request::Request,
        store::Plan,
    },
};

/// The model's tool name.
pub const NAME: &str = "price_product";

/// Whether a question asks what to charge.
pub fn asks_price(folded: &str) -> bool {
    const PHRASES: &[&str] = &[
        "quanto cobrar",
        "quanto devo cobrar",
        "quanto eu cobro",
        "quanto cobro",
        "preco de venda",
        "markup",
        "precificar",
        "precificacao",
        "formar o preco",
        "formacao de preco",
        "calculo o preco",
        "calcular o preco",
        "what to charge",
        "how much should i charge",
        "selling price",
    ];
    PHRASES.iter().any(|p| folded.contains(p))
}

/// What the text says of a price: the unit's cost and the shares, in percent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Said {
    pub cost: Option<f64>,
    pub card: Option<f64>,
    pub commission: Option<f64>,
    pub other: Option<f64>,
    pub margin: Option<f64>,
}

/// Reads the figures clause by clause (a clause ends at ", ", ";", " e " or " mais "): a percentage
/// is named by the words in its clause; the first amount in reais (or beside "custo") is the cost.
pub fn read(text: &str) -> Said {
    let lower = text.to_lowercase();
    let mut clauses = vec![lower.as_str()];
    for separator in [", ", ";", " e ", " mais ", " + ", " and "] {
        clauses = clauses.iter().flat_map(|c| c.split(separator)).collect();
    }
    let mut said = Said::default();
    for clause in clauses {
        let folded = fold(clause);
        let names = |words: &[&str]| words.iter().any(|w| folded.contains(w));
        if let Some(percent) = parse::percent(clause) {
            let slot = if names(&["cartao", "maquininha", "maquina", "card", "taxa"]) {
                &mut said.card
            } else if names(&["comissao", "commission", "vendedor"]) {
                &mut said.commission
            } else if names(&["margem", "lucro", "margin", "profit"]) {
                &mut said.margin
            } else if names(&["imposto", "das", "simples", "tax"]) {
                // The owner's taxes come from their plan's regime, not from a typed rate.
                continue;
            } else if said.margin.is_none() {
                &mut said.margin
            } else {
                &mut said.other
            };
            slot.get_or_insert(percent);
        } else if said.cost.is_none()
            && (clause.contains("r$") || names(&["reais", "custo", "custa", "cost"]))
            && let Some(cost) = parse::amount(clause).filter(|v| *v > 0.0)
        {
            said.cost = Some(cost);
        }
    }
    said
}

/// The guide's answer: the price with its parts in one message, or what is missing.
pub fn answer(text: &str, plan: &Plan, lang: Language) -> String {
    let said = read(text);
    let (Some(cost), Some(margin)) = (said.cost, said.margin) else {
        return say!(lang, "consultant-pricing-words-to-work-out-the-selling");
    };
    let request = Request {
        unit_cost: cost,
        card_fee: said.card.unwrap_or(0.0) / 100.0,
        commission: said.commission.unwrap_or(0.0) / 100.0,
        other_variable: said.other.unwrap_or(0.0) / 100.0,
        target_margin: margin / 100.0,
        include_fixed_costs: true,
        hourly: None,
    };
    let figures = PlanFigures::of(plan);
    match pricing::price(&request, figures.as_ref(), lang) {
        Ok(p) => in_words(&p, lang),
        Err(err) => err.message(lang),
    }
}

/// The price, its parts, how it was reached, the warnings and the offer to keep it in the plan (as
/// its average ticket, through the guide's correction).
pub fn in_words(p: &pricing::Price, lang: Language) -> String {
    let brl = |v: f64| format_brl(v, lang);
    let parts: Vec<String> = p
        .parts
        .iter()
        .map(|part| {
            let percent = format!("{:.1}", part.share * 100.0);
            let percent = lang.decimal(&percent);
            format!("{} {} ({percent} %)", part.name.to_lowercase(), brl(part.amount))
        })
        .collect();
    let mut text = say!(
        lang,
        "consultant-pricing-words-selling-price-of-each-sale",
        price = brl(p.price),
        parts = parts.join(", "),
        explanation = p.explanation
    );
    for warning in &p.warnings {
        text.push_str("\n⚠️ ");
        text.push_str(warning);
    }
    text.push('\n');
    let price = lang.decimal(&format!("{:.2}", p.price));
    text.push_str(&say!(lang, "consultant-pricing-words-want-this-price-as-your", price));
    text
}

/// The tool as the model sees it.
pub fn definition() -> Json {
    let number = |description: &str| json!({"type": "number", "description": description});
    json!({"type": "function", "function": {
        "name": NAME,
        "description": "Computes what to charge for one unit with the server's maths (Sebrae's markup divisor: price = cost ÷ (1 − taxes − card fees − commission − other variable − fixed costs − margin), each a share of the price), with the owner's own taxes and fixed costs from their plan. Use it for every price you tell the user; give the price and its parts in one message and offer to save it to the plan's pricing strategy (save_plan_section marketing pricingStrategy).",
        "parameters": {"type": "object", "properties": {
            "unitCost": number("custo de uma unidade em reais (um serviço por hora: só o material)"),
            "cardFeePercent": number("taxa do cartão/maquininha, % do preço"),
            "commissionPercent": number("comissão, % do preço"),
            "otherVariablePercent": number("outros custos variáveis, % do preço"),
            "targetMarginPercent": number("margem desejada, % do preço"),
            "includeFixedCosts": {"type": "boolean", "description": "include the plan's fixed costs as a share (default true)"},
            "kind": {"type": "string", "enum": ["product", "service"]},
            "hoursPerUnit": number("a service by the hour: hours one unit takes"),
            "billableHoursPerMonth": number("a service by the hour: billable hours a month"),
            "desiredProLabore": number("a service by the hour: pró-labore wanted a month, reais")
        }, "required": ["unitCost", "targetMarginPercent"]}
    }})
}

/// The tool's answer for the model: the price with its parts, or the field that is wrong.
pub fn run(plan: Option<&Plan>, args: &Json, lang: Language) -> String {
    let request: crate::proto::socio::v1::PriceRequest = match crate::proto::json::from_json(args.clone()) {
        Ok(request) => request,
        Err(_) => return "error: unitCost and targetMarginPercent must be numbers".into(),
    };
    let figures = plan.and_then(PlanFigures::of);
    match Request::parse(&request).and_then(|r| pricing::price(&r, figures.as_ref(), lang)) {
        Ok(p) => json!({
            "price": p.price,
            "divisor": p.divisor,
            "parts": p.parts.iter().map(|part| json!({"name": part.name, "percent": (part.share * 10_000.0).round() / 100.0, "amount": part.amount})).collect::<Vec<_>>(),
            "taxesOnTop": p.taxes_on_top.iter().map(|t| json!({"name": t.name, "amount": t.amount})).collect::<Vec<_>>(),
            "invoiceTotal": p.invoice_total,
            "warnings": p.warnings,
            "explanation": p.explanation,
            "howToAnswer": "Say the price and its parts in one message, with the explanation in your words; when taxesOnTop is not empty, say \"R$ price + CBS/IBS = R$ invoiceTotal na nota\" (charged on top of the price, credited to business customers); say each warning; offer to save it to the plan's pricing strategy."
        })
        .to_string(),
        Err(err) => format!("error: {}", err.message(lang)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pricing_question_is_read_as_brazilians_type_it() {
        let said = read("Quanto devo cobrar por um bolo de R$ 30 de custo, 4 % de cartão, 25 % de margem?");
        assert_eq!(said, Said { cost: Some(30.0), card: Some(4.0), margin: Some(25.0), ..Said::default() });
        let said = read(
            "Como calculo o preço de venda com DAS, maquininha 3,5%, margem 20 por cento e custo de 12 reais?",
        );
        assert_eq!(said, Said { cost: Some(12.0), card: Some(3.5), margin: Some(20.0), ..Said::default() });
        assert!(asks_price(&fold("Quanto devo cobrar por um bolo?")));
        assert!(asks_price(&fold("Qual o markup ideal?")));
        assert!(!asks_price(&fold("Quanto pago de DAS?")));
    }
}
