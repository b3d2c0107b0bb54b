//! A plan's figures: the SWOT quadrants written and whether the scenarios can be computed.

use serde_json::json;

use super::*;
use crate::{
    plan::money::finance,
    proto::{json::from_json, socio::v1 as pb},
};

fn plan_with(market: Json, finance: Json) -> Plan {
    let data = |step| match step {
        Step::Market => market.clone(),
        Step::Finance => finance.clone(),
        _ => json!({}),
    };
    let sections =
        Step::ALL.iter().map(|&step| Section { step, data: data(step), completed: false, updated_at: 0 });
    Plan {
        id: "p".into(),
        user_id: "u".into(),
        sections: sections.collect(),
        document: None,
        recorded: None,
        created_at: 0,
        updated_at: 0,
        read_at: 0,
        last_year: None,
    }
}

#[test]
fn only_written_swot_quadrants_count() {
    let market =
        json!({"strengths": "Pão artesanal", "weaknesses": "  ", "threats": "Rede grande", "industry": "x"});
    assert_eq!(plan_with(market, json!({})).swot_quadrants_filled(), 2);
    assert_eq!(plan_with(json!({}), json!({})).swot_quadrants_filled(), 0);
}

#[test]
fn scenarios_are_ready_exactly_when_the_finance_maths_can_run() {
    for finance in [
        json!({}),
        json!({"averageTicket": 25}),
        json!({"averageTicket": null, "expectedSalesPerMonth": 800}),
        json!({"averageTicket": 25, "expectedSalesPerMonth": 800}),
        json!({"averageTicket": 25.5, "expectedSalesPerMonth": 1, "monthlyFixedCosts": null}),
    ] {
        let inputs =
            from_json::<pb::FinanceData>(finance.clone()).ok().and_then(|d| finance::finance_inputs(&d));
        assert_eq!(plan_with(json!({}), finance.clone()).scenarios_ready(), inputs.is_some(), "{finance}");
    }
}

#[test]
fn a_plan_s_status_and_progress_read_the_same_from_two_counts_as_from_the_plan() {
    // The admin's list says them from counts; the builder and the dashboard from the plan.
    assert_eq!(Status::of(0, false), Status::Draft);
    assert_eq!(Status::of(0, true), Status::InProgress, "something written, nothing complete");
    assert_eq!(Status::of(3, false), Status::InProgress);
    assert_eq!(Status::of(6, true), Status::Completed);
    // Three of six steps: 50 %; one of six: 16,67 % → 17; never past 100.
    assert_eq!((progress(0), progress(1), progress(3), progress(6), progress(7)), (0, 17, 50, 100, 100));
}

#[tokio::test]
async fn a_start_finds_the_sections_to_judge_through_their_index_not_by_reading_every_plan() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::connect(&format!("sqlite://{}/plans.db", dir.path().display())).await.unwrap();
    db.migrate().await.unwrap();
    let plan = crate::db::sqlite_query_plan(&db, UNJUDGED_SECTIONS).await;
    assert_eq!(plan, ["SCAN plan_sections USING INDEX plan_sections_unjudged_idx"], "{plan:?}");
}
