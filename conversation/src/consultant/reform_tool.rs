//! The model's `compare_reform_choice` tool: a Simples Nacional company's IBS/CBS inside or outside
//! the DAS worked out from its own plan (`plan::money::reform_choice`), the same figures the API
//! and the offline guide give, with the next window to choose.

use serde_json::{Value as Json, json};

use crate::{
    clock::CivilDate,
    facts,
    locale::Language,
    plan::{
        money::reform_choice::{Request, compare},
        store::Plan,
        tracking::calendar::next_choice_window,
    },
    proto::{json as proto_json, socio::v1 as pb},
};

pub const NAME: &str = "compare_reform_choice";

pub fn definition() -> Json {
    json!({"type": "function", "function": {
        "name": NAME,
        "description": "For a Simples Nacional company (not a MEI): works out from its saved plan what it pays a month with the IBS and CBS inside the DAS and outside it (the regular regime), the credit its business customers would gain, and the next window to choose (April or September). Use it whenever the user asks whether to pay IBS and CBS inside or outside the DAS; quote its figures and its explanation, never your own.",
        "parameters": {"type": "object", "properties": {
            "b2bSharePercent": {"type": "number", "description": "the share of sales to companies, 0-100, when the user said it"},
            "monthlyPurchases": {"type": "number", "description": "reais a month bought from suppliers who charge CBS/IBS, when the user said it"}
        }}
    }})
}

/// The tool's answer for the plan read now: the figures, or what is missing in the user's language.
pub fn run(plan: &Plan, args: &Json, lang: Language) -> String {
    let request: pb::ReformChoiceRequest = match proto_json::from_json(args.clone()) {
        Ok(request) => request,
        Err(_) => return "error: b2bSharePercent and monthlyPurchases must be numbers".into(),
    };
    let today = CivilDate::in_sao_paulo(plan.read_at);
    let window = next_choice_window(today, facts::calendar());
    match Request::parse(&request).and_then(|r| compare(plan, &r, today, window, lang)) {
        Ok(c) => json!({
            "insideDas": c.inside,
            "outsideDas": c.outside,
            "difference": c.difference,
            "b2bSharePercentUsed": (c.b2b_share * 10_000.0).round() / 100.0,
            "customersCreditGain": c.customers_gain,
            "purchaseCredits": c.purchase_credits,
            "nextWindowEnds": c.window.by.iso(),
            "explanation": c.explanation,
            "howToAnswer": "Say both amounts a month, the difference, what business customers gain, that the choice holds for the whole half-year and the next window's last day, and the premise; ask for the share of sales to companies or the purchases if they were assumed."
        })
        .to_string(),
        Err(err) => format!("error: {}", err.message(lang)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::store::{StoredSection, from_parts};

    fn plan(legal: &str) -> Plan {
        let section = |step: &str, data: &str| StoredSection {
            step: step.into(),
            data: data.into(),
            completed: true,
            updated_at: 0,
        };
        let stored = [
            section("legal", legal),
            section("finance", r#"{"averageTicket": 100, "expectedSalesPerMonth": 300}"#),
        ];
        // 2027-01-05, noon in São Paulo.
        from_parts(("p".into(), "u", 0, 0), &stored, (0, 0), 1_799_161_200_000)
    }

    #[test]
    fn the_tool_gives_the_server_s_two_amounts_and_refuses_a_mei_in_words() {
        let salon = plan(r#"{"businessType": "ltda", "taxRegime": "simples_nacional", "cnae": "9602501"}"#);
        let answer: Json = serde_json::from_str(&run(&salon, &json!({}), Language::PtBr)).unwrap();
        assert_eq!(
            (answer["insideDas"].as_f64(), answer["b2bSharePercentUsed"].as_f64()),
            (Some(2_580.0), Some(50.0))
        );
        let mei = plan(r#"{"businessType": "mei", "taxRegime": "simei", "activity": "services"}"#);
        let refused = run(&mei, &json!({}), Language::PtBr);
        assert!(refused.starts_with("error: A escolha de pagar IBS e CBS"), "{refused}");
        assert!(run(&salon, &json!({"b2bSharePercent": "muito"}), Language::PtBr).starts_with("error:"));
    }
}
