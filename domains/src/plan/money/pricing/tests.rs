//! Prices worked by hand with Sebrae's markup divisor: price = cost ÷ (1 − the price's shares).

use serde_json::json;

use super::*;
use crate::plan::{
    money::taxes::{self, Payroll},
    price_request::Hourly,
};

/// 1 June 2026, noon in São Paulo: the tables of 2026 (the MEI's DAS of commerce R$ 82,05, of
/// services R$ 86,05 — Resolução CGSN 140/2018 art. 101, minimum wage of 2026).
const JUNE_2026: i64 = 1_780_326_000_000;

fn cake(margin: f64) -> Request {
    Request {
        unit_cost: 30.0,
        card_fee: 0.04,
        target_margin: margin,
        include_fixed_costs: true,
        ..Request::default()
    }
}

fn plan(legal: serde_json::Value, revenue: f64, fixed: f64, ticket: f64, margin: f64) -> PlanFigures {
    PlanFigures {
        monthly_revenue: revenue,
        monthly_fixed_costs: fixed,
        average_ticket: ticket,
        margin,
        tax: taxes::basis(&legal, revenue, &Payroll::default(), None, JUNE_2026),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn a_cake_costing_30_with_4_percent_card_fees_and_25_percent_margin_costs_42_25_not_38_70() {
    // 30 ÷ (1 − 0,04 − 0,25) = 30 ÷ 0,71 = 42,2535… → R$ 42,25 (cost plus 29 % would be R$ 38,70,
    // whose 29 % is R$ 11,22, not the R$ 8,70 added).
    let p = price(&cake(0.25), None, Language::PtBr).unwrap();
    assert_eq!(p.price, 42.25);
    assert!(close(p.divisor, 0.71));
    assert_eq!((p.tax_share, p.fixed_cost_share), (0.0, 0.0));
    let amounts: Vec<(&str, f64)> = p.parts.iter().map(|part| (part.code, part.amount)).collect();
    // 4 % of 42,25 = 1,69; 25 % = 10,5625 → 10,56.
    assert_eq!(amounts, [("cost", 30.0), ("card_fee", 1.69), ("margin", 10.56)]);
    assert!(p.explanation.contains("R$\u{a0}30,00 ÷ 0,7100 = R$\u{a0}42,25"), "{}", p.explanation);
    assert!(p.warnings[0].contains("não inclui impostos nem custos fixos"), "{:?}", p.warnings);
}

#[test]
fn a_mei_bakery_adds_its_das_and_fixed_costs_as_shares_of_its_revenue() {
    // A commerce MEI expecting R$ 6.000 a month (ticket R$ 40 × 150) with R$ 1.200 of fixed costs:
    // tax share 82,05 ÷ 6.000 = 1,3675 %; fixed 1.200 ÷ 6.000 = 20 %.
    // Divisor 1 − 0,013675 − 0,04 − 0,20 − 0,25 = 0,496325; 30 ÷ 0,496325 = 60,444… → R$ 60,44.
    let mei = plan(json!({"businessType": "mei", "activity": "commerce"}), 6_000.0, 1_200.0, 40.0, 0.10);
    let p = price(&cake(0.25), Some(&mei), Language::PtBr).unwrap();
    assert!(close(p.tax_share, 0.013675) && close(p.fixed_cost_share, 0.20), "{p:?}");
    assert!(close(p.divisor, 0.496325));
    assert_eq!(p.price, 60.44);
    // 60,44 is 51 % above the plan's R$ 40 ticket: said so.
    assert!(p.warnings.iter().any(|w| w.contains("ticket médio")), "{:?}", p.warnings);
    // Without the fixed costs: 30 ÷ (1 − 0,013675 − 0,04 − 0,25) = 30 ÷ 0,696325 = 43,0834… → 43,08.
    let without = Request { include_fixed_costs: false, ..cake(0.25) };
    assert_eq!(price(&without, Some(&mei), Language::PtBr).unwrap().price, 43.08);
}

#[test]
fn a_simples_company_in_annex_i_prices_with_its_effective_rate() {
    // RBT12 R$ 432.000 (R$ 36.000 a month) in Annex I: (432.000 × 9,5 % − 13.860) ÷ 432.000 =
    // 6,2917 % (LC 123/2006 Anexo I, 3ª faixa). Without fixed costs:
    // 30 ÷ (1 − 0,0629167 − 0,04 − 0,25) = 30 ÷ 0,6470833 = 46,3619 → R$ 46,36.
    let simples = plan(
        json!({"taxRegime": "simples_nacional", "activity": "commerce"}),
        36_000.0,
        18_000.0,
        45.0,
        0.07,
    );
    let req = Request { include_fixed_costs: false, ..cake(0.25) };
    let p = price(&req, Some(&simples), Language::En).unwrap();
    assert!(close(p.tax_share, 27_180.0 / 432_000.0), "{p:?}");
    assert_eq!(p.price, 46.36);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn an_hour_of_service_carries_the_fixed_costs_and_the_pro_labore_then_the_divisor() {
    // A services MEI: R$ 2.000 fixed + R$ 4.000 pró-labore over 120 billable hours = R$ 50 an
    // hour; a 3-hour job with R$ 20 of materials costs 20 + 3 × 50 = R$ 170. Tax share at the
    // plan's R$ 6.000 a month: 86,05 ÷ 6.000 = 1,43417 %; no fixed share (it is in the hour).
    // 170 ÷ (1 − 0,0143417 − 0,20) = 170 ÷ 0,7856583 = 216,379 → R$ 216,38.
    let mei = plan(json!({"businessType": "mei", "activity": "services"}), 6_000.0, 2_000.0, 300.0, 0.20);
    let req = Request {
        unit_cost: 20.0,
        target_margin: 0.20,
        include_fixed_costs: true,
        hourly: Some(Hourly {
            hours_per_unit: 3.0,
            billable_hours_per_month: 120.0,
            desired_pro_labore: 4_000.0,
        }),
        ..Request::default()
    };
    let p = price(&req, Some(&mei), Language::PtBr).unwrap();
    assert_eq!((p.unit_cost, p.fixed_cost_share, p.price), (170.0, 0.0, 216.38));
    assert!(p.explanation.contains("3 h × R$\u{a0}50,00 a hora"), "{}", p.explanation);
}

#[test]
fn shares_that_leave_nothing_for_the_cost_are_refused_on_the_margin() {
    let err = price(&Request { card_fee: 0.5, ..cake(0.5) }, None, Language::PtBr).unwrap_err();
    assert!(format!("{err:?}").contains("targetMarginPercent"), "{err:?}");
}

#[test]
fn a_margin_below_the_plan_s_own_is_a_warning_and_a_plan_without_taxes_says_why() {
    let undecided = plan(json!({}), 6_000.0, 0.0, 40.0, 0.30);
    let p = price(&cake(0.10), Some(&undecided), Language::PtBr).unwrap();
    assert!(
        p.warnings.iter().any(|w| w.contains("margem de 10 % é menor que a do seu plano (30 %)")),
        "{:?}",
        p.warnings
    );
    assert!(p.warnings.iter().any(|w| w.starts_with("Impostos fora do preço")), "{:?}", p.warnings);
}

#[test]
fn the_contract_s_fields_are_checked_at_the_edge() {
    let ok = pb::PriceRequest {
        unit_cost: 30.0,
        target_margin_percent: 25.0,
        card_fee_percent: Some(4.0),
        ..Default::default()
    };
    let req = Request::parse(&ok).unwrap();
    assert!(close(req.card_fee, 0.04) && close(req.target_margin, 0.25) && req.include_fixed_costs);
    for (bad, field) in [
        (pb::PriceRequest { unit_cost: 0.0, ..ok.clone() }, "unitCost"),
        (pb::PriceRequest { card_fee_percent: Some(120.0), ..ok.clone() }, "cardFeePercent"),
        (pb::PriceRequest { target_margin_percent: -5.0, ..ok.clone() }, "targetMarginPercent"),
        (pb::PriceRequest { kind: "bolo".into(), ..ok.clone() }, "kind"),
        (
            pb::PriceRequest { kind: "service".into(), hours_per_unit: Some(2.0), ..ok.clone() },
            "billableHoursPerMonth",
        ),
    ] {
        let err = Request::parse(&bad).unwrap_err();
        assert!(format!("{err:?}").contains(field), "{field}: {err:?}");
    }
}

/// 2027-01-05, noon in São Paulo.
const JANUARY_2027: i64 = 1_799_161_200_000;

#[test]
fn a_presumido_service_in_2027_leaves_pis_and_cofins_out_of_the_divisor_and_puts_cbs_and_ibs_on_the_invoice()
{
    // A consultancy in Lucro Presumido, R$ 40.000 a month, ISS 5 %: a service costing R$ 370 (its
    // hours) with a 20 % margin. 2026: taxes 6.532 ÷ 40.000 = 16,33 % inside the price →
    // 370 ÷ (1 − 0,1633 − 0,20) = 370 ÷ 0,6367 = R$ 581,12. 2027: PIS/Cofins gone (ADCT art. 126),
    // IRPJ + CSLL + ISS = 5.072 ÷ 40.000 = 12,68 % → 370 ÷ 0,6732 = R$ 549,61; on the invoice the
    // CBS 8,7 % and IBS 0,1 % on the price without its ISS (549,61 × 0,95 = 522,13): 45,43 + 0,52 →
    // R$ 595,56 (LC 214/2025 arts. 344 and 347).
    let legal = json!({"taxRegime": "lucro_presumido", "activity": "services"});
    let service =
        Request { unit_cost: 370.0, target_margin: 0.20, include_fixed_costs: false, ..Request::default() };
    let at = |when: i64| PlanFigures {
        monthly_revenue: 40_000.0,
        monthly_fixed_costs: 0.0,
        average_ticket: 560.0,
        margin: 0.1,
        tax: taxes::basis(&legal, 40_000.0, &Payroll::default(), None, when),
    };
    let y2026 = price(&service, Some(&at(JUNE_2026)), Language::PtBr).unwrap();
    assert_eq!((y2026.price, y2026.invoice_total), (581.12, 581.12));
    assert!(y2026.taxes_on_top.is_empty());
    let y2027 = price(&service, Some(&at(JANUARY_2027)), Language::PtBr).unwrap();
    assert_eq!(y2027.price, 549.61);
    let on_top: Vec<(&str, f64)> = y2027.taxes_on_top.iter().map(|t| (t.code, t.amount)).collect();
    assert_eq!(on_top, [("cbs", 45.43), ("ibs", 0.52)]);
    assert_eq!(y2027.invoice_total, 595.56);
    assert!(
        y2027.explanation.contains("R$\u{a0}549,61 + CBS/IBS = R$\u{a0}595,56")
            && y2027.explanation.contains("premissa"),
        "{}",
        y2027.explanation
    );
}
