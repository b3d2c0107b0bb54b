//! The built-in facts: checked as any facts file is, dated, sourced, and chosen by the day.

use std::collections::HashSet;

use super::*;

#[test]
fn the_built_in_file_passes_the_checks_any_facts_file_must_pass() {
    let built_in: Facts = serde_json::from_str(DATA).unwrap();
    assert_eq!(validate(&built_in), Ok(()));
    // A broken copy is refused, naming what is wrong.
    let mut broken: Facts = serde_json::from_str(DATA).unwrap();
    broken.taxes.mei_das.0[0].valid_until = Some("31/12/2026".into());
    assert!(validate(&broken).unwrap_err().contains("meiDas"));
    // The DAS follows each year's minimum wage: a period without an end is refused.
    let mut endless: Facts = serde_json::from_str(DATA).unwrap();
    endless.taxes.mei_das.0[0].valid_until = None;
    assert!(validate(&endless).unwrap_err().contains("meiDas"));
    // Periods that overlap are refused, in any dated table.
    let mut overlapping: Facts = serde_json::from_str(DATA).unwrap();
    let mut second = overlapping.calendar.ceiling.0[0].clone();
    overlapping.calendar.ceiling.0[0].valid_until = Some("2026-12-31".into());
    second.valid_from = "2026-06-01".into();
    overlapping.calendar.ceiling.0.push(second);
    assert!(validate(&overlapping).unwrap_err().contains("calendar.ceiling"));
    let mut unsourced: Facts = serde_json::from_str(DATA).unwrap();
    unsourced.facts[0].source = String::new();
    assert!(validate(&unsourced).unwrap_err().contains("source"));
}

#[test]
fn the_das_in_force_is_chosen_by_the_day_2027_s_is_an_estimate_and_the_last_is_said_stale_past_its_period() {
    // Fixed days, never the machine's: 2026's DAS holds in 2026; in 2027 the estimate from the
    // 2027 budget's minimum wage (5 % of R$ 1.741 = R$ 87,05, + R$ 1 ICMS) until the decree; on
    // 2028-01-05, with no 2028 value published, 2027's is still used and said to be stale.
    let (das, validity) = taxes().mei_das.on("2026-06-01");
    assert_eq!((das.commerce, validity), (82.05, Validity::Current));
    let (period, validity) = taxes().mei_das.period_on("2027-01-05");
    assert_eq!((period.value.commerce, validity), (88.05, Validity::Current));
    assert_eq!(period.provisional.as_ref().map(|p| p.kind), Some(ProvisionalKind::Estimate));
    let (das, validity) = taxes().mei_das.on("2028-01-05");
    assert_eq!((das.commerce, validity), (88.05, Validity::Expired { until: "2027-12-31".into() }));
    // 2026's fact is superseded by 2027's, not stale; 2027's words say they are an estimate.
    assert!(expired_on("2027-01-05").is_empty(), "{:?}", expired_on("2027-01-05"));
    assert_eq!(get("mei.das").status("2027-01-05"), "superseded");
    assert_eq!(on("mei.das", "2027-01-05").id, "mei.das_2027");
    assert_eq!(on("mei.das", "2026-12-02").id, "mei.das");
    assert!(on("mei.das", "2027-01-05").pt.contains("estimativa"));
    assert_eq!(expired_on("2028-01-05"), ["mei.das_2027", "taxes.meiDas", "taxes.cbsIbs"]);
    assert!(expired_on("2026-11-27").is_empty());
    let said = get("mei.das_2027").text_on("2028-01-05", Language::PtBr);
    assert!(said.contains("⚠️") && said.contains("2027-12-31"), "{said}");
    assert!(!get("mei.das").text_on("2026-11-27", Language::PtBr).contains("⚠️"));
}

#[test]
fn a_value_is_the_one_of_the_period_holding_the_day() {
    // Two periods with a gap between them, then nothing: every case of Dated::on.
    #[derive(Debug, Deserialize, PartialEq)]
    struct Value {
        v: f64,
    }
    let table: Dated<Value> = serde_json::from_str(
        r#"[{"validFrom": "2026-01-01", "validUntil": "2026-12-31", "v": 1.0},
            {"validFrom": "2027-03-01", "v": 2.0}]"#,
    )
    .unwrap();
    let v = |v: f64| Value { v };
    assert_eq!(table.on("2025-12-31"), (&v(1.0), Validity::Upcoming), "before the first: the first");
    assert_eq!(table.on("2026-01-01"), (&v(1.0), Validity::Current));
    assert_eq!(table.on("2026-12-31"), (&v(1.0), Validity::Current), "the last day belongs to it");
    let gap = table.on("2027-02-01");
    assert_eq!(gap, (&v(1.0), Validity::Expired { until: "2026-12-31".into() }), "in a gap: the one before");
    assert_eq!(table.on("2027-03-01"), (&v(2.0), Validity::Current));
    assert_eq!(table.on("2099-01-01"), (&v(2.0), Validity::Current), "open-ended: never stale");
}

#[test]
fn every_dated_table_holds_on_a_fixed_day_and_2027_s_das_and_cbs_are_an_estimate_and_a_premise() {
    let on = |day: &str| tables(day).into_iter().map(|t| (t.id, t.status())).collect::<Vec<_>>();
    let november: Vec<_> = on("2026-11-27").into_iter().filter(|(_, s)| *s != "current").collect();
    // The reform's CBS and IBS start in 2027: before, their table is upcoming.
    assert_eq!(november, [("taxes.cbsIbs", "upcoming")]);
    let january: Vec<_> = on("2027-01-05").into_iter().filter(|(_, s)| *s != "current").collect();
    // The DAS from the 2027 budget's minimum wage until the decree; the CBS on the government's
    // 8,8 % until the Senate's resolution (LC 214/2025 art. 349).
    assert_eq!(january, [("taxes.meiDas", "estimate"), ("taxes.cbsIbs", "premise")]);
    let after: Vec<_> = on("2028-01-05").into_iter().filter(|(_, s)| *s != "current").collect();
    assert_eq!(after, [("taxes.meiDas", "expired"), ("taxes.cbsIbs", "expired")]);
    // PIS and Cofins end with 2026 (EC 132/2023, ADCT art. 126).
    assert_eq!(taxes().lucro_presumido.value_on("2026-12-31").cofins, 0.03);
    assert_eq!(taxes().lucro_presumido.value_on("2027-01-01").cofins, 0.0);
    // 5 % of R$ 1.741 = R$ 87,05, + R$ 1 ICMS / R$ 5 ISS / both.
    let das = taxes().mei_das.value_on("2027-02-20");
    assert_eq!((das.commerce, das.services, das.commerce_and_services), (88.05, 92.05, 93.05));
    // The rules in force in 2026 are the ones the law set from 2018 (LC 155/2016).
    assert_eq!(calendar().ceiling.value_on("2026-06-01").yearly, 81_000.0);
    assert_eq!(taxes().mei_ceiling.value_on("2026-06-01").excess_rates.services, 0.06);
    assert_eq!(taxes().simples.value_on("2026-06-01").annexes["III"][0], (180_000.0, 0.06, 0.0));
    assert_eq!(taxes().lucro_presumido.value_on("2026-06-01").csll, 0.09);
}

#[test]
fn every_fact_has_a_date_a_source_and_words_in_both_languages() {
    assert!(all().len() >= 20);
    for fact in all() {
        let date_ok = matches!(fact.as_of.len(), 4 | 7 | 10)
            && fact.as_of.split('-').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
            && fact.as_of.as_str() >= "2000";
        assert!(date_ok, "{}: a date, not {:?}", fact.id, fact.as_of);
        assert!(fact.source.trim().len() > 5, "{}: a source", fact.id);
        assert!(
            !fact.pt.trim().is_empty() && !fact.en.trim().is_empty(),
            "{}: words in both languages",
            fact.id
        );
        assert!(topics().contains(&fact.topic), "{}: a known topic", fact.id);
    }
}

#[test]
fn the_calendar_names_facts_that_exist_and_dates_that_are_dates() {
    let c = calendar();
    let ceiling = c.ceiling.value_on("2026-06-01");
    for id in
        [&c.das.fact, &c.dasn.fact, &c.defis.fact, &ceiling.fact, &ceiling.tolerance_fact, &c.holidays.fact]
    {
        assert!(all().iter().any(|f| &f.id == id), "{id} is a fact");
    }
    assert!(get(&ceiling.fact).pt.contains("81.000") && ceiling.yearly == 81_000.0);
    assert!(get(&ceiling.tolerance_fact).pt.contains("20%") && ceiling.tolerance == 0.2);
    assert!(get(&c.das.fact).pt.contains("dia 20") && c.das.due_day == 20);
    assert!(get(&c.dasn.fact).pt.contains("31 de maio") && (c.dasn.due_month, c.dasn.due_day) == (5, 31));
    assert!(get(&c.defis.fact).pt.contains("31 de março") && (c.defis.due_month, c.defis.due_day) == (3, 31));
    assert_eq!(ceiling.per_month_in_opening_year * 12.0, ceiling.yearly);
    for day in &c.holidays.every_year {
        let (m, d) = day.split_once('-').unwrap();
        assert!(
            (1..=12).contains(&m.parse::<i32>().unwrap()) && (1..=31).contains(&d.parse::<i32>().unwrap())
        );
    }
    for date in &c.holidays.good_friday {
        assert_eq!(date.len(), 10, "{date}");
    }
}

#[test]
fn the_tax_tables_name_facts_that_exist_and_their_brackets_climb() {
    let t = taxes();
    let das = t.mei_das.value_on("2026-06-01");
    let simples = t.simples.value_on("2026-06-01");
    for id in [&das.fact, &simples.fact, &simples.fator_r.fact] {
        assert!(all().iter().any(|f| &f.id == id), "{id} is a fact");
    }
    assert!(get(&das.fact).pt.contains("R$ 82,05") && das.commerce == 82.05);
    assert!(get(&das.fact).pt.contains("R$ 86,05") && das.services == 86.05);
    assert!(get(&simples.fator_r.fact).pt.contains("28%") && simples.fator_r.threshold == 0.28);
    for annex in ["I", "II", "III", "V"] {
        let brackets = &simples.annexes[annex];
        assert_eq!(brackets.len(), 6, "{annex}");
        assert!(brackets.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1), "{annex} climbs");
        assert_eq!(brackets[0].2, 0.0, "{annex}: nothing to deduct in the first bracket");
        assert_eq!(brackets[5].0, 4_800_000.0, "{annex}: the Simples' ceiling");
    }
}

#[test]
fn a_citation_never_prints_its_date_twice() {
    let pending = get("mei.pending_change");
    assert!(pending.source.contains("17/03/2026"));
    let cited = pending.citation(Language::PtBr);
    assert_eq!(cited.matches("17/03/2026").count(), 1, "{cited}");
    let limit = get("mei.revenue_limit").citation(Language::PtBr);
    assert_eq!(limit.matches("28/11/2025").count(), 1, "{limit}");
    assert!(get("legal.ltda").citation(Language::PtBr).contains("Lei 13.874/2019"));
}

#[test]
fn ids_are_unique_and_every_topic_has_facts() {
    let ids: HashSet<&str> = all().iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids.len(), all().len());
    for topic in topics() {
        assert!(all().iter().any(|f| &f.topic == topic), "{topic} has facts");
    }
}

#[test]
fn the_mei_limit_and_das_are_the_ones_in_force_with_their_dates() {
    let limit = get("mei.revenue_limit");
    assert!(limit.pt.contains("R$ 81.000"));
    assert_eq!(limit.date(Language::PtBr), "28/11/2025");
    // Only economic activities' revenue counts: never a salary (Receita Federal, 28/11/2025).
    assert!(limit.pt.contains("salário (CLT)") && limit.pt.contains("não contam"), "{}", limit.pt);
    // English dates read as the rest of the server writes them (CivilDate::written_in).
    assert_eq!(get("mei.das").date(Language::En), "2026-01-05");
    assert_eq!(get("mei.das").date(Language::PtBr), "05/01/2026");
    assert!(get("mei.register").citation(Language::PtBr).contains("conferido em março de 2026"));
}

#[test]
fn a_lookup_answers_the_topic_s_facts_with_dates_or_names_the_topics() {
    let answer = lookup("mei", Language::PtBr, "2026-11-27");
    let facts = answer["facts"].as_array().unwrap();
    assert!(facts.iter().all(|f| f["asOf"].is_string() && f["source"].is_string()));
    assert!(facts.iter().any(|f| f["fact"].as_str().unwrap().contains("R$ 82,05")));
    assert!(
        lookup("astrologia", Language::PtBr, "2026-11-27")["error"].as_str().unwrap().contains("legal_forms")
    );
}
