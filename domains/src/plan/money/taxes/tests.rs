//! Each regime against examples worked by hand, each with its source beside it. Amounts in reais a
//! month unless said; RBT12 is the expected monthly revenue × 12 (no months recorded).

use serde_json::json;

use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.005
}

/// 2026-06-01 in São Paulo, when the tables in force are those of the facts file.
const JUNE_2026: i64 = 1_780_282_800_000;
/// 2025-06-01: before LC 224/2025.
const JUNE_2025: i64 = 1_748_746_800_000;

fn none() -> Payroll {
    Payroll::default()
}

fn line(b: &Basis, revenue: f64, code: &str) -> f64 {
    b.lines(revenue, Language::PtBr).iter().find(|l| l.code == code).map_or(0.0, |l| l.amount)
}

#[test]
fn a_consultancy_in_lucro_presumido_at_30_thousand_pays_16_33_percent() {
    // Services, R$ 30.000: PIS 0,65 % = 195,00; Cofins 3 % = 900,00 (Lei 9.718/1998; Leis
    // 10.637/2002 art. 8º and 10.833/2003 art. 10); presumed profit 32 % = 9.600 (Lei 9.249/1995 art.
    // 15 §1º III a; art. 20 for the CSLL): IRPJ 15 % = 1.440,00, CSLL 9 % = 864,00; ISS 5 % =
    // 1.500,00 (LC 116/2003 art. 8º II). Total 4.899,00 = 16,33 %; no additional (9.600 < 20.000).
    let legal = json!({"businessType": "ltda", "taxRegime": "lucro_presumido", "activity": "services"});
    let b = basis(&legal, 30_000.0, &none(), None, JUNE_2026);
    let expected = [("pis", 195.0), ("cofins", 900.0), ("irpj", 1_440.0), ("csll", 864.0), ("iss", 1_500.0)];
    for (code, amount) in expected {
        assert!(close(line(&b, 30_000.0, code), amount), "{code}: {}", line(&b, 30_000.0, code));
    }
    assert!(close(b.monthly(30_000.0), 4_899.0), "{}", b.monthly(30_000.0));
    assert_eq!(format!("{:.2}", b.effective_at(30_000.0) * 100.0), "16.33");
    assert_eq!(line(&b, 30_000.0, "irpj_additional"), 0.0);
    let words = b.explain(Language::PtBr);
    assert!(words.contains("Lucro Presumido (serviços)") && words.contains("Lei 9.249/1995"), "{words}");
}

#[test]
fn the_irpj_additional_starts_at_20_thousand_of_presumed_profit_a_month() {
    // Lei 9.249/1995 art. 3º §1º: 10 % on the presumed profit above R$ 20.000 a month. Services at
    // R$ 62.500 presume exactly 20.000: no additional. At R$ 100.000: 32.000 presumed, additional
    // 10 % × 12.000 = 1.200; IRPJ 4.800, CSLL 2.880, PIS 650, Cofins 3.000, ISS (3 % here) 3.000:
    // 15.530.
    let legal = json!({"taxRegime": "lucro_presumido", "activity": "services", "issRatePercent": 3});
    let b = basis(&legal, 100_000.0, &none(), None, JUNE_2026);
    assert_eq!(line(&b, 62_500.0, "irpj_additional"), 0.0);
    assert!(close(line(&b, 100_000.0, "irpj_additional"), 1_200.0));
    assert!(close(b.monthly(100_000.0), 15_530.0), "{}", b.monthly(100_000.0));
    // Above the threshold a sale pays the additional too: 10 % × 32 % = 3,2 points more.
    let (below, _) = b.linear_at(10_000.0);
    let (above, fixed) = b.linear_at(100_000.0);
    assert!(close((above - below) * 100.0, 3.2) && close(fixed, -2_000.0), "{below} {above} {fixed}");
}

#[test]
fn commerce_in_lucro_presumido_presumes_8_and_12_percent_with_the_owners_icms() {
    // Commerce, R$ 50.000, ICMS effective 4 % after credits: PIS 325; Cofins 1.500; IRPJ 15 % ×
    // 8 % × 50.000 = 600; CSLL 9 % × 12 % × 50.000 = 540 (Lei 9.249/1995 arts. 15 and 20); ICMS
    // 2.000. Total 4.965.
    let legal = json!({"taxRegime": "lucro_presumido", "activity": "commerce", "icmsRatePercent": 4});
    let b = basis(&legal, 50_000.0, &none(), None, JUNE_2026);
    assert!(close(b.monthly(50_000.0), 4_965.0), "{}", b.monthly(50_000.0));
    // Without its rate, ICMS is left out and the explanation asks for it.
    let without = basis(
        &json!({"taxRegime": "lucro_presumido", "activity": "commerce"}),
        50_000.0,
        &none(),
        None,
        JUNE_2026,
    );
    assert!(close(without.monthly(50_000.0), 2_965.0));
    assert!(without.explain(Language::PtBr).contains("ICMS fora das contas"));
}

#[test]
fn lc_224_raises_the_presumption_above_5_million_a_year_from_its_date() {
    // LC 224/2025: from 2026-01-01 the presumption is 10 % higher on the revenue above R$ 5 milhões
    // a year (416.666,67 a month). Services at R$ 600.000 a month: presumed 32 % × 600.000 +
    // 32 % × 10 % × 183.333,33 = 192.000 + 5.866,67 = 197.866,67; IRPJ 15 % = 29.680,00.
    let legal = json!({"taxRegime": "lucro_presumido", "activity": "services"});
    let in_2026 = basis(&legal, 600_000.0, &none(), None, JUNE_2026);
    assert!(close(line(&in_2026, 600_000.0, "irpj"), 29_680.0), "{}", line(&in_2026, 600_000.0, "irpj"));
    // Chosen by date: in 2025 the presumption was 32 % on all of it (IRPJ 28.800).
    let in_2025 = basis(&legal, 600_000.0, &none(), None, JUNE_2025);
    assert!(close(line(&in_2025, 600_000.0, "irpj"), 28_800.0));
}

#[test]
fn a_beauty_salon_is_natively_annex_iii_by_its_cnae() {
    // CNAE 9602-5/01 (cabeleireiros), LC 123/2006 art. 18 §5-B: Annex III whatever the payroll.
    // R$ 20.000 a month, RBT12 240.000, 2nd bracket (11,2 %, deduction 9.360):
    // (240.000 × 11,2 % − 9.360) ÷ 240.000 = 17.520 ÷ 240.000 = 7,30 %; DAS 1.460,00.
    for cnae in ["9602-5/01", "9602501", "9602 5 01"] {
        let legal = json!({"taxRegime": "simples_nacional", "activity": "services", "cnae": cnae});
        let b = basis(&legal, 20_000.0, &none(), None, JUNE_2026);
        assert_eq!(b.annex(), Some(Annex::III), "{cnae}");
        assert!(close(b.monthly(20_000.0), 1_460.0), "{}", b.monthly(20_000.0));
        assert!(
            b.explain(Language::PtBr).contains("CNAE 9602-5/01 (Cabeleireiros"),
            "{}",
            b.explain(Language::PtBr)
        );
    }
}

#[test]
fn an_it_firm_s_fator_r_counts_the_13th_the_vacation_third_and_fgts() {
    // CNAE 6201-5/01 (art. 18 §5-I and §5-J): Annex III with a Fator R of 28 % or more, else V.
    // CLT wages 7.000 and pró-labore 3.000 a month; R$ 40.000 a month, RBT12 480.000.
    // Payroll (art. 18 §24): 7.000 × (12 + 1 + ⅓) = 93.333,33, + FGTS 8 % = 100.800,00; pró-labore
    // 36.000; 136.800 ÷ 480.000 = 28,5 % → Annex III, 3rd bracket (13,5 %, deduction 17.640):
    // (64.800 − 17.640) ÷ 480.000 = 9,825 %, DAS 3.930,00. Counting wages and pró-labore only
    // (10.000 × 12 = 25 %) would give Annex V: (93.600 − 9.900) ÷ 480.000 = 17,4375 %, 6.975,00 —
    // R$ 3.045,00 a month more.
    let legal = json!({"taxRegime": "simples_nacional", "activity": "services", "cnae": "6201-5/01"});
    let payroll = Payroll { wages: Some(7_000.0), pro_labore: Some(3_000.0), total: None };
    assert!(close(payroll.fator_r_year(0.08).unwrap(), 136_800.0));
    let b = basis(&legal, 40_000.0, &payroll, None, JUNE_2026);
    let Basis::Simples { annex, fator_r, .. } = &b else { panic!("{b:?}") };
    assert_eq!(*annex, Annex::III);
    assert!(close(fator_r.unwrap() * 100.0, 28.5));
    assert!(close(b.monthly(40_000.0), 3_930.0), "{}", b.monthly(40_000.0));
    let legacy = basis(&legal, 40_000.0, &Payroll { total: Some(10_000.0), ..none() }, None, JUNE_2026);
    assert_eq!(legacy.annex(), Some(Annex::V));
    assert!(close(legacy.monthly(40_000.0) - b.monthly(40_000.0), 3_045.0));
    // No payroll at all: Annex V, said so.
    let unknown = basis(&legal, 40_000.0, &none(), None, JUNE_2026);
    assert_eq!(unknown.annex(), Some(Annex::V));
    assert!(unknown.explain(Language::PtBr).contains("o Fator R não pode ser calculado"));
}

#[test]
fn a_fator_r_of_exactly_28_percent_is_annex_iii() {
    // Art. 18 §5-J: "igual ou superior a 28 %". Pró-labore 5.600 × 12 = 67.200 = 28 % of 240.000.
    let legal = json!({"taxRegime": "simples_nacional", "cnae": "7020400"});
    let at_28 = basis(&legal, 20_000.0, &Payroll { pro_labore: Some(5_600.0), ..none() }, None, JUNE_2026);
    assert_eq!(at_28.annex(), Some(Annex::III));
    let below = basis(&legal, 20_000.0, &Payroll { pro_labore: Some(5_599.0), ..none() }, None, JUNE_2026);
    assert_eq!(below.annex(), Some(Annex::V));
}

#[test]
fn annex_iv_pays_the_cpp_outside_the_das() {
    // CNAE 8121-4/00 (limpeza, art. 18 §5-C VI). R$ 30.000 a month: RBT12 360.000, the top of the
    // 2nd bracket (9 %, deduction 8.100): (32.400 − 8.100) ÷ 360.000 = 6,75 %, DAS 2.025,00.
    // CPP 20 % (Lei 8.212/1991 art. 22 I) on wages of 10.000 with the 13th and the vacation third
    // spread over the year (10.000 × 13⅓ ÷ 12 = 11.111,11): 2.222,22. Total 4.247,22.
    let legal = json!({"taxRegime": "simples_nacional", "activity": "services", "cnae": "8121-4/00"});
    let b = basis(&legal, 30_000.0, &Payroll { wages: Some(10_000.0), ..none() }, None, JUNE_2026);
    assert_eq!(b.annex(), Some(Annex::IV));
    assert!(close(line(&b, 30_000.0, "das"), 2_025.0), "{}", line(&b, 30_000.0, "das"));
    assert!(close(line(&b, 30_000.0, "cpp"), 2_222.22), "{}", line(&b, 30_000.0, "cpp"));
    assert!(close(b.monthly(30_000.0), 4_247.22));
    assert!(b.explain(Language::En).contains("paid outside the DAS"));
}

#[test]
fn a_service_business_without_its_cnae_is_asked_for_it_and_a_mix_for_its_split() {
    let services = basis(
        &json!({"taxRegime": "simples_nacional", "activity": "services"}),
        20_000.0,
        &none(),
        None,
        JUNE_2026,
    );
    assert_eq!(services, Basis::Needs { regime: "simples_nacional", missing: Missing::Cnae });
    assert!(!services.modelled() && services.monthly(20_000.0) == 0.0);
    assert!(services.explain(Language::PtBr).contains("informe o CNAE"));
    let mixed = basis(
        &json!({"taxRegime": "simples_nacional", "activity": "commerce_and_services"}),
        20_000.0,
        &none(),
        None,
        JUNE_2026,
    );
    assert_eq!(mixed, Basis::Needs { regime: "simples_nacional", missing: Missing::Split });
    // The main activity's CNAE settles it: a restaurant is commerce, Annex I.
    let restaurant =
        json!({"taxRegime": "simples_nacional", "activity": "commerce_and_services", "cnae": "5611-2/01"});
    assert_eq!(basis(&restaurant, 20_000.0, &none(), None, JUNE_2026).annex(), Some(Annex::I));
    let presumido = basis(
        &json!({"taxRegime": "lucro_presumido", "activity": "commerce_and_services"}),
        20_000.0,
        &none(),
        None,
        JUNE_2026,
    );
    assert_eq!(presumido, Basis::Needs { regime: "lucro_presumido", missing: Missing::Split });
}

#[test]
fn a_mei_past_the_ceiling_by_up_to_20_percent_pays_the_excess() {
    // LC 123/2006 art. 18-A §7º III: over R$ 81.000 by up to 20 %, the excess pays the Simples'
    // first-bracket rate (commerce 4 %) once, in January's DAS. R$ 7.500 a month = 90.000 a year:
    // excess 9.000 × 4 % = 360,00, 30,00 a month; with the DAS of 82,05: 112,05 a month.
    let legal = json!({"businessType": "mei", "activity": "commerce"});
    let b = basis(&legal, 7_500.0, &none(), None, JUNE_2026);
    let Basis::Mei { excess: Some(excess), .. } = &b else { panic!("{b:?}") };
    assert!(close(excess.tax(), 360.0));
    assert!(close(b.monthly(7_500.0), 112.05), "{}", b.monthly(7_500.0));
    // The tolerance's edge: 97.200 a year (8.100 a month) is still a MEI (excess 16.200 × 4 %).
    let edge = basis(&legal, 8_100.0, &none(), None, JUNE_2026);
    assert!(matches!(edge, Basis::Mei { excess: Some(e), .. } if close(e.tax(), 648.0)), "{edge:?}");
    // Within the ceiling: the DAS alone.
    assert_eq!(
        basis(&legal, 6_750.0, &none(), None, JUNE_2026),
        Basis::Mei {
            activity: Some(Activity::Commerce),
            das: 82.05,
            excess: None,
            expired: None,
            fact: "mei.das",
            estimate: None,
            rules: crate::plan::money::taxes::MeiRules::on("2026-06-01")
        }
    );
}

#[test]
fn a_mei_past_the_tolerance_is_computed_as_the_simples_company_it_becomes() {
    // Services at R$ 8.400 a month = 100.800 a year, more than 20 % over 81.000 (97.200):
    // excluded back to January (art. 18-A §7º III b); Annex III's first bracket, 6 %: 504,00 a month.
    let legal = json!({"businessType": "mei", "taxRegime": "simei", "activity": "services"});
    let b = basis(&legal, 8_400.0, &none(), None, JUNE_2026);
    assert!(matches!(b, Basis::Simples { annex: Annex::III, from_mei: Some(_), .. }), "{b:?}");
    assert!(close(b.monthly(8_400.0), 504.0));
    assert_eq!(b.regime(), "simples_nacional");
    let words = b.explain(Language::PtBr);
    assert!(words.contains("desenquadrado desde janeiro") && words.contains("informe o CNAE"), "{words}");
}

#[test]
fn a_bakery_in_annex_i_at_432_thousand_a_year_pays_6_29_percent() {
    // Annex I, 3rd bracket (9,5 %, deduction 13.860): (432.000 × 9,5 % − 13.860) ÷ 432.000 =
    // 27.180 ÷ 432.000 = 6,29 % (LC 123/2006 Anexo I).
    let b = basis(
        &json!({"taxRegime": "simples_nacional", "activity": "commerce"}),
        36_000.0,
        &none(),
        None,
        JUNE_2026,
    );
    let Basis::Simples { annex, rbt12, nominal, deduction, effective, .. } = b.clone() else {
        panic!("{b:?}")
    };
    assert_eq!((annex, rbt12, nominal, deduction), (Annex::I, 432_000.0, 0.095, 13_860.0));
    assert!((effective - 27_180.0 / 432_000.0).abs() < 1e-9, "{effective}");
    let words = b.explain(Language::PtBr);
    assert!(
        words.contains("Anexo I") && words.contains("6,29 %") && words.contains("LC 123/2006"),
        "{words}"
    );
}

#[test]
fn each_annex_s_brackets_give_their_effective_rate_at_the_edges() {
    // LC 123/2006 Anexos I a V (LC 155/2016). A bracket's top belongs to it ("até").
    assert_eq!(simples_rate(Annex::I, 180_000.0, "2026-06-01").unwrap().2, 0.04);
    let second = simples_rate(Annex::I, 180_000.01, "2026-06-01").unwrap();
    assert_eq!((second.0, second.1), (0.073, 5_940.0));
    assert!(
        (simples_rate(Annex::II, 600_000.0, "2026-06-01").unwrap().2 - (60_000.0 - 13_860.0) / 600_000.0)
            .abs()
            < 1e-12
    );
    assert!(
        (simples_rate(Annex::III, 300_000.0, "2026-06-01").unwrap().2 - (33_600.0 - 9_360.0) / 300_000.0)
            .abs()
            < 1e-12
    );
    // Annex IV, 4th bracket (14 %, deduction 39.780) at 1.000.000: 100.220 ÷ 1.000.000 = 10,022 %.
    assert!((simples_rate(Annex::IV, 1_000_000.0, "2026-06-01").unwrap().2 - 0.10022).abs() < 1e-12);
    assert!(
        (simples_rate(Annex::V, 1_000_000.0, "2026-06-01").unwrap().2 - (205_000.0 - 17_100.0) / 1_000_000.0)
            .abs()
            < 1e-12
    );
    assert!(simples_rate(Annex::I, 4_800_000.01, "2026-06-01").is_none(), "above the Simples' ceiling");
}

#[test]
fn a_mei_pays_the_das_of_its_activity_and_lucro_real_is_the_accountant_s() {
    let commerce = basis(
        &json!({"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}),
        5_000.0,
        &none(),
        None,
        JUNE_2026,
    );
    assert_eq!(
        commerce,
        Basis::Mei {
            activity: Some(Activity::Commerce),
            das: 82.05,
            excess: None,
            expired: None,
            fact: "mei.das",
            estimate: None,
            rules: crate::plan::money::taxes::MeiRules::on("2026-06-01")
        }
    );
    let services =
        basis(&json!({"taxRegime": "simei", "activity": "services"}), 5_000.0, &none(), None, JUNE_2026);
    assert_eq!(services.fixed(), 86.05);
    let unknown = basis(&json!({"businessType": "mei"}), 5_000.0, &none(), None, JUNE_2026);
    assert_eq!(unknown.fixed(), 87.05, "no activity: the highest DAS, said so");
    assert!(unknown.explain(Language::PtBr).contains("não foi informada"));
    let real = basis(&json!({"taxRegime": "lucro_real"}), 50_000.0, &none(), None, JUNE_2026);
    assert!(!real.modelled() && real.explain(Language::PtBr).contains("peça a um contador"));
    let none_chosen = basis(&json!({}), 50_000.0, &none(), None, JUNE_2026);
    assert_eq!(none_chosen, Basis::NotChosen);
    assert!(none_chosen.explain(Language::En).contains("No taxes in the numbers"));
}

#[test]
fn a_cnae_is_read_as_people_write_it() {
    assert_eq!(normalise_cnae("9602-5/01").as_deref(), Some("9602501"));
    assert_eq!(normalise_cnae(" 9602501 ").as_deref(), Some("9602501"));
    assert_eq!(normalise_cnae("96.02-5-01").as_deref(), Some("9602501"));
    assert_eq!(normalise_cnae("96025"), None);
    assert_eq!(normalise_cnae("cabeleireiro 9602501"), None);
    assert_eq!(explain::shown("9602501"), "9602-5/01");
    // Every entry of the table names an annex the computation knows.
    for (code, entry) in &crate::facts::taxes().cnaes.table {
        assert!(code.len() == 7 && cnae_entry(code).is_some(), "{code}: {}", entry.annex);
    }
}

/// 2027-01-05, noon in São Paulo: PIS and Cofins are gone, the CBS and IBS in (EC 132/2023, ADCT
/// art. 126; LC 214/2025 arts. 344 and 347).
const JANUARY_2027: i64 = 1_799_161_200_000;
/// 2026-02-01, noon in São Paulo: LC 224's IRPJ in force, its CSLL not yet (from 2026-04-01).
const FEBRUARY_2026: i64 = 1_769_958_000_000;

#[test]
fn a_presumido_consultancy_at_40_thousand_pays_cbs_and_ibs_instead_of_pis_and_cofins_in_2027() {
    // Services, R$ 40.000, ISS 5 % (LC 116/2003). 2026: PIS 0,65 % = 260; Cofins 3 % = 1.200; IRPJ
    // 15 % × 32 % × 40.000 = 1.920; CSLL 9 % × 12.800 = 1.152; ISS 2.000 → 6.532 (16,33 %).
    // 2027: no PIS/Cofins (ADCT art. 126); the base of the CBS and IBS leaves the ISS out: 40.000 −
    // 2.000 = 38.000; CBS (8,8 % premise − 0,1 p.p., art. 347) 8,7 % = 3.306; IBS 0,05 % + 0,05 %
    // (art. 344) = 38 → 1.920 + 1.152 + 2.000 + 3.306 + 38 = 8.416: R$ 1.884 more than 2026's.
    let legal = json!({"businessType": "ltda", "taxRegime": "lucro_presumido", "activity": "services"});
    let y2026 = basis(&legal, 40_000.0, &none(), None, JUNE_2026);
    assert!(close(y2026.monthly(40_000.0), 6_532.0), "{}", y2026.monthly(40_000.0));
    let y2027 = basis(&legal, 40_000.0, &none(), None, JANUARY_2027);
    let lines = y2027.lines(40_000.0, Language::PtBr);
    let codes: Vec<(&str, bool)> = lines.iter().map(|l| (l.code, l.on_top)).collect();
    assert_eq!(
        codes,
        [("irpj", false), ("csll", false), ("iss", false), ("cbs", true), ("ibs", true)],
        "no PIS, no Cofins; the CBS and IBS on top"
    );
    assert!(close(line(&y2027, 40_000.0, "cbs"), 3_306.0), "{}", line(&y2027, 40_000.0, "cbs"));
    assert!(close(line(&y2027, 40_000.0, "ibs"), 38.0), "{}", line(&y2027, 40_000.0, "ibs"));
    assert!(close(y2027.monthly(40_000.0), 8_416.0), "{}", y2027.monthly(40_000.0));
    assert!(close(y2027.monthly(40_000.0) - y2026.monthly(40_000.0), 1_884.0));
    assert!(close(y2027.inside_price(40_000.0), 5_072.0), "out of the price: IRPJ, CSLL and ISS");
    let words = y2027.explain(Language::PtBr);
    for said in ["por fora do preço", "cliente empresa toma o crédito", "premissa", "8,8 %", "art. 127"] {
        assert!(words.contains(said), "{said}: {words}");
    }
    assert!(!words.contains("PIS 0,65"), "{words}");
    assert!(y2027.premise().is_some());
}

#[test]
fn a_regulated_profession_pays_30_percent_less_cbs_and_ibs_only_when_the_owner_says_so() {
    // LC 214/2025 art. 127: 30 % off both. R$ 40.000, ISS 5 %: CBS 8,7 % × 0,7 = 6,09 % × 38.000 =
    // 2.314,20; IBS 0,07 % × 38.000 = 26,60. Not said: the full rates, and the question asked.
    let said = |profession: &str| {
        let legal = json!({"taxRegime": "lucro_presumido", "activity": "services", "profession": profession});
        basis(&legal, 40_000.0, &none(), None, JANUARY_2027)
    };
    let regulated = said("regulated");
    assert!(close(line(&regulated, 40_000.0, "cbs"), 2_314.2), "{}", line(&regulated, 40_000.0, "cbs"));
    assert!(close(line(&regulated, 40_000.0, "ibs"), 26.6), "{}", line(&regulated, 40_000.0, "ibs"));
    assert!(regulated.explain(Language::PtBr).contains("Com a redução de 30,00 %"));
    let not = said("not_regulated");
    assert!(close(line(&not, 40_000.0, "cbs"), 3_306.0));
    assert!(!not.explain(Language::PtBr).contains("diga na etapa Jurídico"));
    let unsaid = said("");
    assert!(close(line(&unsaid, 40_000.0, "cbs"), 3_306.0), "never assumed");
    assert!(unsaid.explain(Language::PtBr).contains("diga na etapa Jurídico — não a supusemos"));
}

#[test]
fn lc_224_raises_the_csll_s_presumption_only_from_april_2026() {
    // LC 224/2025 art. 4º: presumptions 10 % higher on revenue above R$ 5 milhões a year (R$
    // 416.666,67 a month); the IRPJ's from 1/1/2026, the CSLL's from 1/4/2026 (ninety days). At
    // R$ 516.666,67 a month, R$ 100.000 above: CSLL 9 % × (32 % × 516.666,67 + 3,2 % × 100.000) =
    // 15.168 from April; 14.880 in February.
    let legal = json!({"taxRegime": "lucro_presumido", "activity": "services"});
    let revenue = 516_666.67;
    let february = basis(&legal, revenue, &none(), None, FEBRUARY_2026);
    let june = basis(&legal, revenue, &none(), None, JUNE_2026);
    assert!(
        (line(&february, revenue, "csll") - 14_880.0).abs() < 0.01,
        "{}",
        line(&february, revenue, "csll")
    );
    assert!((line(&june, revenue, "csll") - 15_168.0).abs() < 0.01, "{}", line(&june, revenue, "csll"));
    assert_eq!(line(&february, revenue, "irpj"), line(&june, revenue, "irpj"), "the IRPJ's from January");
}

#[test]
fn a_mei_s_2027_das_is_the_budget_s_estimate_and_says_so() {
    // 5 % of the 2027 budget's minimum wage R$ 1.741 = R$ 87,05, + R$ 1 ICMS = R$ 88,05 — an
    // estimate until the decree (PLOA 2027).
    let legal = json!({"businessType": "mei", "activity": "commerce"});
    let b = basis(&legal, 6_000.0, &none(), None, JANUARY_2027);
    assert!(close(b.monthly(6_000.0), 88.05), "{}", b.monthly(6_000.0));
    let words = b.explain(Language::PtBr);
    assert!(words.contains("R$\u{a0}88,05 é uma estimativa") && words.contains("R$ 1.741"), "{words}");
    let june = basis(&legal, 6_000.0, &none(), None, JUNE_2026);
    assert!(!june.explain(Language::PtBr).contains("estimativa"));
}

#[test]
fn a_mei_whose_2026_passed_the_ceiling_is_taxed_as_an_me_in_annex_i_from_january_2027() {
    // R$ 90.000 recorded in 2026 > R$ 81.000 (LC 123/2006 art. 18-A §7º III a): from 1/1/2027 an
    // ME in the Simples; commerce, Annex I, RBT12 R$ 90.000 ≤ R$ 180.000: 4 % × R$ 7.500 = R$ 300,00
    // a month (LC 123/2006 Anexo I), not the DAS-MEI plus 1/12 of the excess.
    let legal = json!({"businessType": "mei", "taxRegime": "simei", "activity": "commerce"});
    let june_2026_ms = JUNE_2026;
    let history = MeiHistory {
        last_year: Some(crate::plan::store::YearRecorded {
            year: 2026,
            revenue: 90_000.0,
            months: 12,
            first_month: 1,
        }),
        opened_last_year: false,
        legal_changed_at: june_2026_ms,
    };
    let recorded = Some(Recorded { revenue: 90_000.0, months: 12 });
    let me = basis_after(&legal, 7_500.0, &none(), recorded, JANUARY_2027, &history);
    assert_eq!((me.regime(), me.annex()), ("simples_nacional", Some(Annex::I)), "{me:?}");
    assert!(close(me.monthly(7_500.0), 300.0), "{}", me.monthly(7_500.0));
    assert!(me.explain(Language::PtBr).contains("Desde 1º de janeiro de 2027 o negócio é ME"));
    // Within the limit, or the owner restated MEI since 1 January: a MEI.
    let within = MeiHistory {
        last_year: Some(crate::plan::store::YearRecorded {
            year: 2026,
            revenue: 80_000.0,
            months: 12,
            first_month: 1,
        }),
        ..history
    };
    assert_eq!(basis_after(&legal, 7_500.0, &none(), recorded, JANUARY_2027, &within).regime(), "mei");
    let restated = MeiHistory { legal_changed_at: JANUARY_2027, ..history };
    assert_eq!(basis_after(&legal, 7_500.0, &none(), recorded, JANUARY_2027, &restated).regime(), "mei");
    // Opened in July 2026: the ceiling is 6 × R$ 6.750 = R$ 40.500; six months of R$ 7.000 =
    // R$ 42.000 passed it.
    let opened = MeiHistory {
        last_year: Some(crate::plan::store::YearRecorded {
            year: 2026,
            revenue: 42_000.0,
            months: 6,
            first_month: 7,
        }),
        opened_last_year: true,
        ..history
    };
    let exit = opened.exit_on("2027-01-05").unwrap();
    assert_eq!((exit.year, exit.limit), (2026, 40_500.0));
}

#[test]
fn an_it_consultancy_in_annex_v_is_told_the_pro_labore_that_reaches_annex_iii_and_the_net_saving() {
    // CNAE 6204-0/00 (Fator R), R$ 40.000 a month, RBT12 R$ 480.000, pró-labore R$ 3.000: Fator R
    // 36.000 ÷ 480.000 = 7,5 % → Annex V, (480.000 × 19,5 % − 9.900) ÷ 480.000 = 17,4375 % = R$
    // 6.975,00. 28 % is R$ 134.400 of payroll: R$ 98.400 more a year, R$ 8.200,00 more pró-labore
    // a month (LC 123/2006 art. 18 §24). Annex III: (480.000 × 13,5 % − 17.640) ÷ 480.000 =
    // 9,825 % = R$ 3.930,00. The partner's INSS, 11 % of R$ 8.200 = R$ 902,00 (Lei 8.212/1991 art.
    // 21 and 30 §4º): net saving 6.975 − 3.930 − 902 = R$ 2.143,00 a month.
    let legal = json!({"taxRegime": "simples_nacional", "activity": "services", "cnae": "6204000"});
    let payroll = Payroll { pro_labore: Some(3_000.0), ..Payroll::default() };
    let b = basis(&legal, 40_000.0, &payroll, None, JUNE_2026);
    let lever = fator_r_lever(&b, 40_000.0).unwrap();
    assert_eq!(lever.extra_pro_labore, 8_200.0);
    assert!(
        close(lever.das_v, 6_975.0) && close(lever.das_iii, 3_930.0) && close(lever.inss, 902.0),
        "{lever:?}"
    );
    assert!(close(lever.saving, 2_143.0), "{lever:?}");
    let words = b.explain(Language::PtBr);
    assert!(
        words.contains("R$\u{a0}8.200,00 a mais de pró-labore") && words.contains("R$\u{a0}2.143,00 por mês"),
        "{words}"
    );
    // In Annex III already, or natively in another annex: no lever.
    let paid = Payroll { pro_labore: Some(11_200.0), ..Payroll::default() };
    assert!(fator_r_lever(&basis(&legal, 40_000.0, &paid, None, JUNE_2026), 40_000.0).is_none());
    let salon = json!({"taxRegime": "simples_nacional", "cnae": "9602501"});
    assert!(fator_r_lever(&basis(&salon, 40_000.0, &payroll, None, JUNE_2026), 40_000.0).is_none());
}

#[test]
fn the_das_is_shared_by_the_annex_s_table_and_the_iss_never_passes_5_percent() {
    // LC 123/2006 Anexo III, 2nd bracket: Cofins 14,05 % + PIS 3,05 % = 17,1 %, ISS 32 %.
    let (pis_cofins, iss) = simples_shares(Annex::III, 360_000.0, "2027-01-05").unwrap();
    assert!((pis_cofins - 0.171).abs() < 1e-9 && (iss - 0.32).abs() < 1e-9);
    // 5th bracket at RBT12 R$ 3.000.000: (3.000.000 × 21 % − 125.640) ÷ 3.000.000 = 16,812 %; its ISS
    // share 33,5 % would be 5,632 % of revenue, over the 5 % cap (art. 18 §1º-B I): ISS 5 % ÷ 16,812 %
    // = 29,741 % of the DAS, and the rest shared with PIS + Cofins at 23,46 %: 0,70259 × 23,46 % =
    // 16,483 %.
    let (pis_cofins, iss) = simples_shares(Annex::III, 3_000_000.0, "2027-01-05").unwrap();
    assert!((iss - 0.297_407).abs() < 1e-5, "{iss}");
    assert!((pis_cofins - 0.164_828).abs() < 1e-5, "{pis_cofins}");
    // Annex V's 5th bracket never reaches the cap: its own shares.
    let (pis_cofins, iss) = simples_shares(Annex::V, 3_000_000.0, "2027-01-05").unwrap();
    assert!((pis_cofins - 0.1715).abs() < 1e-9 && (iss - 0.235).abs() < 1e-9);
}
