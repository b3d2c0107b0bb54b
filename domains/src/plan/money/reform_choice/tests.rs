//! The IBS/CBS choice worked by hand for a Simples salon.

use serde_json::json;

use super::*;
use crate::plan::store::{StoredSection, from_parts};

/// 2027-01-05, noon in São Paulo.
const JANUARY_2027: i64 = 1_799_161_200_000;

fn salon(legal: serde_json::Value) -> Plan {
    let stored = [
        StoredSection { step: "legal".into(), data: legal.to_string(), completed: true, updated_at: 0 },
        StoredSection {
            step: "finance".into(),
            data: json!({"averageTicket": 100, "expectedSalesPerMonth": 300, "monthlyFixedCosts": 10000})
                .to_string(),
            completed: true,
            updated_at: 0,
        },
    ];
    from_parts(("p".into(), "u", 0, 0), &stored, (0, 0), JANUARY_2027)
}

fn window() -> Window {
    // From 5 January 2027 the next window is April's, to Friday 30/04/2027, for July–December.
    let today = CivilDate::in_sao_paulo(JANUARY_2027);
    crate::plan::tracking::calendar::next_choice_window(today, facts::calendar())
}

#[test]
fn a_salon_in_annex_iii_at_30_thousand_pays_more_outside_the_das_and_its_business_customers_gain_credit() {
    // A salon (CNAE 9602-5/01, Annex III, LC 123/2006 art. 18 §5-B), R$ 30.000 a month, RBT12
    // R$ 360.000 (2nd bracket: 11,2 %, R$ 9.360): (360.000 × 11,2 % − 9.360) ÷ 360.000 = 8,6 % →
    // DAS R$ 2.580,00. Its repartition in that bracket (LC 123/2006 Anexo III): PIS + Cofins 17,1 %
    // = R$ 441,18; ISS 32 % = R$ 825,60. Outside: DAS 2.580 − 441,18 = 2.138,82, plus CBS 8,7 % +
    // IBS 0,1 % (LC 214/2025 arts. 347 and 344; the 8,8 % premise) on 30.000 − 825,60 = 29.174,40:
    // 2.567,35, less credits on R$ 5.000 of purchases, 440,00 → 2.138,82 + 2.127,35 = R$ 4.266,17;
    // R$ 1.686,17 more. Business customers with 60 % of the sales gain 0,6 × (2.567,35 − 441,18) =
    // R$ 1.275,70 of credit a month.
    let plan = salon(json!({"businessType": "ltda", "taxRegime": "simples_nacional", "cnae": "9602501"}));
    let request = Request { b2b_share: Some(0.6), monthly_purchases: Some(5_000.0) };
    let today = CivilDate::in_sao_paulo(JANUARY_2027);
    let c = compare(&plan, &request, today, window(), Language::PtBr).unwrap();
    assert_eq!((c.inside, c.outside), (2_580.0, 4_266.17), "{c:?}");
    assert!((c.difference - 1_686.17).abs() < 0.005, "{}", c.difference);
    assert_eq!((c.purchase_credits, c.customers_gain), (440.0, 1_275.7));
    assert_eq!((c.window.by.iso().as_str(), c.window.half, c.window.year), ("2027-04-30", 2, 2027));
    for said in
        ["Anexo III", "30/04/2027", "2º semestre de 2027", "não pode ser desfeita", "premissa", "1.275,70"]
    {
        assert!(c.explanation.contains(said), "{said}: {}", c.explanation);
    }
    // Unsaid, half the sales to companies and the plan's variable costs as purchases (none here):
    // said so.
    let unsaid = compare(&plan, &Request::default(), today, window(), Language::PtBr).unwrap();
    assert_eq!((unsaid.b2b_share, unsaid.purchase_credits), (0.5, 0.0));
    assert!(unsaid.explanation.contains("suposição: metade das vendas"), "{}", unsaid.explanation);
}

#[test]
fn the_choice_is_a_simples_company_s_and_the_window_follows_april_and_september() {
    let today = CivilDate::in_sao_paulo(JANUARY_2027);
    let mei = salon(json!({"businessType": "mei", "taxRegime": "simei", "activity": "services"}));
    let refused = compare(&mei, &Request::default(), today, window(), Language::PtBr).unwrap_err();
    assert!(matches!(refused, AppError::FailedPrecondition(Precondition::ReformChoiceNeedsSimples)));
    let calendar = facts::calendar();
    let at = |year, month, day| {
        crate::plan::tracking::calendar::next_choice_window(CivilDate { year, month, day }, calendar)
    };
    // In September 2027, to Thursday the 30th, for 2028's first half; from October, April 2028's
    // (Friday the 28th) for its second.
    let september = at(2027, 9, 10);
    assert_eq!((september.by.iso().as_str(), september.half, september.year), ("2027-09-30", 1, 2028));
    let october = at(2027, 10, 1);
    assert_eq!((october.by.iso().as_str(), october.half, october.year), ("2028-04-28", 2, 2028));
    assert!(
        Request::parse(&pb::ReformChoiceRequest { b2b_share_percent: Some(120.0), monthly_purchases: None })
            .is_err()
    );
}
