//! The offline guide reads a surprising figure back before saving it ("Entendi R$ 18.000.000,00
//! por mês — confere?", "R$ 900 por venda, mais que o preço de R$ 35 — é isso mesmo?") and asks the
//! days worked when sales are given per day. What waits for the person's answer is kept in the
//! guide's state (`guide_state.draft`): `{"confirm": <patch>}` or `{"perDay": n}`.

use serde_json::{Value as Json, json};

use super::{parse, questions::Question};
use crate::{
    locale::Language,
    plan::{money::format_brl, sections::Step, store::Plan},
};

/// Figures above these are read back before they are saved (a typo's size, not a rule).
const LARGE_MONEY: f64 = 1_000_000.0;
const LARGE_TICKET: f64 = 100_000.0;
const LARGE_SALES: f64 = 100_000.0;

/// The words that read a surprising answer back, or None when it can be saved as it is.
pub fn surprising(question: &Question, patch: &Json, plan: &Plan, lang: Language) -> Option<String> {
    let brl = |v: f64| format_brl(v, lang);
    let finance = &plan.section(Step::Finance).data;
    let ticket = finance["averageTicket"].as_f64().filter(|t| *t > 0.0);
    let read_back = |what: String| say!(lang, "consultant-answer-checks-i-read-is-that-right", what);
    match question.field {
        "variableCostPerSale" => {
            let per_sale = patch["variableCostPerSale"].as_f64().unwrap_or(0.0);
            let percent = patch["variableCostPercent"].as_f64().unwrap_or(0.0);
            let ticket = ticket?;
            let cost = per_sale + ticket * percent / 100.0;
            // Compared in centavos: R$ 19,50 against a price of R$ 19,50 is "the same as", not "more".
            let (cost_cents, ticket_cents) = ((cost * 100.0).round(), (ticket * 100.0).round());
            (cost_cents >= ticket_cents).then(|| {
                let same = cost_cents == ticket_cents;
                say!(
                    lang,
                    "consultant-answer-checks-a-sale-price-of-is",
                    cost = brl(cost),
                    ticket = brl(ticket),
                    cost_is = if same { "equal" } else { "more" }
                )
            })
        }
        "monthlyFixedCosts" | "startupCosts" => {
            let value = patch[question.field].as_f64()?;
            (value > LARGE_MONEY).then(|| read_back(brl(value)))
        }
        "averageTicket" => {
            let value = patch[question.field].as_f64()?;
            (value > LARGE_TICKET)
                .then(|| read_back(say!(lang, "consultant-answer-checks-a-sale", brl = brl(value))))
        }
        "expectedSalesPerMonth" => {
            let value = patch[question.field].as_f64()?;
            (value > LARGE_SALES)
                .then(|| read_back(say!(lang, "consultant-answer-checks-sales-a-month", value)))
        }
        _ => None,
    }
}

/// Sales said per day: the days worked a week are asked next.
pub fn ask_days(per_day: f64, lang: Language) -> String {
    say!(lang, "consultant-answer-checks-got-it-sales-a-day", per_day)
}

/// The days worked a week answering [`ask_days`]: the month's sales patch, or None when unreadable.
pub fn month_from_days(per_day: f64, text: &str) -> Option<Json> {
    let days = parse::days_a_week(text)
        .or_else(|| parse::count(text).map(f64::from).filter(|d| (1.0..=7.0).contains(d)))?;
    Some(json!({ "expectedSalesPerMonth": (per_day * days * parse::WEEKS_A_MONTH).round() as i64 }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_with_ticket(ticket: f64) -> Plan {
        let sections = Step::ALL
            .iter()
            .map(|&step| crate::plan::store::Section {
                step,
                data: if step == Step::Finance { json!({ "averageTicket": ticket }) } else { json!({}) },
                completed: false,
                updated_at: 0,
            })
            .collect();
        Plan {
            id: "p".into(),
            user_id: "u".into(),
            sections,
            document: None,
            recorded: None,
            created_at: 0,
            updated_at: 0,
            read_at: 0,
            last_year: None,
        }
    }

    #[test]
    fn a_cost_equal_to_the_price_is_said_to_be_the_same_not_more() {
        let question =
            crate::consultant::questions::Question::find(Step::Finance, "variableCostPerSale").unwrap();
        let plan = plan_with_ticket(19.5);
        let said =
            surprising(question, &json!({"variableCostPerSale": 19.5}), &plan, Language::PtBr).unwrap();
        assert!(said.starts_with("R$\u{a0}19,50 por venda, igual ao preço de R$\u{a0}19,50"), "{said}");
        let said =
            surprising(question, &json!({"variableCostPerSale": 25.0}), &plan, Language::PtBr).unwrap();
        assert!(said.contains("mais que o preço de R$\u{a0}19,50"), "{said}");
        assert_eq!(surprising(question, &json!({"variableCostPerSale": 8.0}), &plan, Language::PtBr), None);
    }

    #[test]
    fn days_worked_turn_a_day_s_sales_into_a_month_s() {
        assert_eq!(month_from_days(6.0, "de terça a sábado"), Some(json!({"expectedSalesPerMonth": 130})));
        assert_eq!(month_from_days(6.0, "5"), Some(json!({"expectedSalesPerMonth": 130})));
        assert_eq!(month_from_days(6.0, "muitos"), None);
    }
}
