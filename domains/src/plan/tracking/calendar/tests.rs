//! The fiscal calendar on fixed days, each hand-checked against the calendar and its holidays.

use super::*;

/// A São Paulo wall-clock time (UTC−3) as Unix ms.
fn at(year: i64, month: i64, day: i64, hour: i64) -> i64 {
    CivilDate { year, month, day }.starts_at() + hour * 3_600_000
}

fn consenting() -> Preferences {
    Preferences {
        monthly_checkin: true,
        tax_reminders: true,
        consented_at: Some(0),
        ..Preferences::default()
    }
}

const MEI: Profile = Profile {
    mei: true,
    simples: false,
    opened: None,
    activity: None,
    other_regime: false,
    presumido: false,
    left_mei: None,
};

fn month(year: i64, m: i64, revenue: f64) -> MonthResult {
    MonthResult { month: YearMonth { year, month: m }, revenue, costs: 0.0, sales_count: 1, recorded_at: 0 }
}

fn kinds(due: &[Due]) -> Vec<Kind> {
    due.iter().map(|d| d.kind).collect()
}

#[test]
fn weekends_and_national_holidays_are_not_business_days() {
    let calendar = facts::calendar();
    // 2026-11-15 is a Sunday and a holiday; 2026-11-20 (Friday) is Consciência Negra.
    assert!(!is_business_day(CivilDate { year: 2026, month: 11, day: 15 }, calendar));
    assert!(!is_business_day(CivilDate { year: 2026, month: 11, day: 20 }, calendar));
    assert!(is_business_day(CivilDate { year: 2026, month: 11, day: 16 }, calendar));
    assert_eq!(business_day_from(CivilDate { year: 2026, month: 11, day: 20 }, calendar).iso(), "2026-11-23");
    assert_eq!(business_day_from(CivilDate { year: 2026, month: 4, day: 3 }, calendar).iso(), "2026-04-06");
    // 2027-01-01 is a Friday and a holiday: the first business day is Monday the 4th.
    assert_eq!(checkin_day(2027, 1, &consenting(), calendar).iso(), "2027-01-04");
}

#[test]
fn the_check_in_goes_on_the_first_business_day_at_nine_and_never_in_the_quiet_hours() {
    let prefs = Preferences { tax_reminders: false, ..consenting() };
    // 2026-12-01 is a Tuesday.
    assert!(due(at(2026, 12, 1, 8), &prefs, &Profile::default(), &[], Language::PtBr).is_empty());
    let nine = due(at(2026, 12, 1, 9), &prefs, &Profile::default(), &[], Language::PtBr);
    assert_eq!(nine, vec![Due { kind: Kind::Checkin, period: "2026-11".into(), detail: "novembro".into() }]);
    assert!(due(at(2026, 12, 1, 20), &prefs, &Profile::default(), &[], Language::PtBr).is_empty());
    assert!(due(at(2026, 12, 2, 9), &prefs, &Profile::default(), &[], Language::PtBr).is_empty());
    // Their own day and hour; an hour before 8 is quiet whatever they chose.
    let own = Preferences { day: Some(10), hour: Some(14), ..prefs };
    assert!(due(at(2026, 12, 10, 13), &own, &Profile::default(), &[], Language::PtBr).is_empty());
    assert_eq!(
        kinds(&due(at(2026, 12, 10, 14), &own, &Profile::default(), &[], Language::PtBr)),
        [Kind::Checkin]
    );
    // Last month already recorded: nothing to ask.
    let recorded = [month(2026, 11, 10.0)];
    assert!(due(at(2026, 12, 1, 10), &prefs, &Profile::default(), &recorded, Language::PtBr).is_empty());
}

#[test]
fn nothing_is_due_without_consent_or_after_parar() {
    let none = Preferences::default();
    assert!(due(at(2026, 12, 1, 10), &none, &MEI, &[], Language::PtBr).is_empty());
    let stopped = Preferences { stopped_at: Some(1), ..consenting() };
    assert!(due(at(2026, 12, 1, 10), &stopped, &MEI, &[], Language::PtBr).is_empty());
}

#[test]
fn a_mei_is_reminded_of_the_das_on_the_fifteenth_or_the_next_business_day() {
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    // 2026-11-15 is a Sunday: the reminder goes on Monday the 16th; the 20th is a holiday, so
    // the DAS is due on the 23rd.
    assert!(due(at(2026, 11, 15, 10), &prefs, &MEI, &[], Language::PtBr).is_empty());
    let monday = due(at(2026, 11, 16, 10), &prefs, &MEI, &[], Language::PtBr);
    assert_eq!(kinds(&monday), [Kind::Das]);
    assert_eq!(monday[0].period, "2026-11");
    assert!(
        monday[0].detail.contains("outubro") && monday[0].detail.contains("23/11/2026"),
        "{}",
        monday[0].detail
    );
    // Not a MEI: no DAS.
    assert!(due(at(2026, 11, 16, 10), &prefs, &Profile::default(), &[], Language::PtBr).is_empty());
}

#[test]
fn a_simples_company_is_reminded_of_the_pgdas_d_and_its_das_by_the_twentieth_or_the_next_business_day() {
    // Res. CGSN 140/2018 arts. 38 and 40 §3º: the month is declared and paid by the 20th of the
    // next, or the next business day. 2026-11-15 is a Sunday: the reminder goes on Monday the
    // 16th; the 20th is Consciência Negra (a Friday holiday), so October's is due on Monday the
    // 23rd. 2026-12-20 is a Sunday: November's is due on Monday the 21st (the 15th, a Tuesday).
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    let simples = Profile { simples: true, ..Profile::default() };
    assert!(due(at(2026, 11, 15, 10), &prefs, &simples, &[], Language::PtBr).is_empty());
    let november = due(at(2026, 11, 16, 10), &prefs, &simples, &[], Language::PtBr);
    assert_eq!(kinds(&november), [Kind::SimplesDas]);
    assert_eq!(november[0].period, "2026-11");
    let said = &november[0].detail;
    assert!(said.contains("outubro") && said.contains("PGDAS-D") && said.contains("23/11/2026"), "{said}");
    let december = due(at(2026, 12, 15, 10), &prefs, &simples, &[], Language::PtBr);
    assert!(december[0].detail.contains("21/12/2026"), "{}", december[0].detail);
    // A MEI pays its own DAS, not the Simples'.
    assert_eq!(kinds(&due(at(2026, 11, 16, 10), &prefs, &MEI, &[], Language::PtBr)), [Kind::Das]);
}

#[test]
fn the_dasn_comes_in_may_for_a_mei_and_the_defis_in_march_for_the_simples() {
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    // 2027-05-17 is a Monday (the 15th is a Saturday).
    let may = due(at(2027, 5, 17, 10), &prefs, &MEI, &[], Language::PtBr);
    assert_eq!(kinds(&may), [Kind::Das, Kind::Dasn]);
    assert!(may[1].detail.contains("2026") && may[1].detail.contains("31/05/2027"), "{}", may[1].detail);
    let simples = Profile { simples: true, ..Profile::default() };
    let march = due(at(2027, 3, 15, 10), &prefs, &simples, &[], Language::En);
    assert_eq!(kinds(&march), [Kind::SimplesDas, Kind::Defis]);
    assert!(march[1].detail.contains("2027-03-31"), "{}", march[1].detail);
}

#[test]
fn the_ceiling_is_projected_at_the_pace_of_the_recorded_months() {
    let months = [month(2026, 1, 7_000.0), month(2026, 2, 8_000.0), month(2026, 3, 9_000.0)];
    let p = ceiling_projection(&months, 2026, None, None).unwrap();
    assert_eq!((p.limit, p.revenue_so_far, p.projected), (81_000.0, 24_000.0, 96_000.0));
    assert_eq!(p.tolerance_limit, 97_200.0);
    // 24k + 8k × 7 = 80k by October, 88k by November.
    assert_eq!(p.crossing, Some(YearMonth { year: 2026, month: 11 }));
    let slow = [month(2026, 1, 5_000.0)];
    assert_eq!(ceiling_projection(&slow, 2026, None, None).unwrap().crossing, None);
    assert!(ceiling_projection(&slow, 2025, None, None).is_none());
    // Opened in July: six months of R$ 6.750.
    let opened = Some(YearMonth { year: 2026, month: 7 });
    let new = ceiling_projection(&[month(2026, 7, 7_000.0)], 2026, opened, None).unwrap();
    assert_eq!((new.limit, new.crossing), (40_500.0, Some(YearMonth { year: 2026, month: 12 })));
}

#[test]
fn a_crossing_the_pace_estimates_is_never_in_a_month_gone_by_and_a_real_one_is_said_passed() {
    // Only October recorded, at R$ 12.000: the pace (R$ 12.000 × 12 = R$ 144.000) would have passed
    // R$ 81.000 in July (7 × 12.000 = 84.000) — months not recorded, estimates: in November 2026 the
    // crossing is November, not July.
    let november = YearMonth { year: 2026, month: 11 };
    let october = [month(2026, 10, 12_000.0)];
    let p = ceiling_projection(&october, 2026, None, Some(november)).unwrap();
    assert_eq!((p.crossing, p.passed), (Some(november), false));
    // Recorded months that passed it: the month they did, said as passed (January to September at
    // R$ 10.000: 90.000 > 81.000 in September).
    let recorded: Vec<MonthResult> = (1..=9).map(|m| month(2026, m, 10_000.0)).collect();
    let p = ceiling_projection(&recorded, 2026, None, Some(november)).unwrap();
    assert_eq!((p.crossing, p.passed), (Some(YearMonth { year: 2026, month: 9 }), true));
    let said = ceiling_warning(&p, p.crossing.unwrap(), Language::PtBr);
    assert!(said.contains("já passaram do limite em setembro de 2026"), "{said}");
}

#[test]
fn a_mei_on_pace_to_cross_the_ceiling_is_warned_with_the_tolerance_rule() {
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    let months = [month(2026, 1, 7_000.0), month(2026, 2, 8_000.0), month(2026, 3, 9_000.0)];
    let due = due(at(2026, 4, 7, 10), &prefs, &MEI, &months, Language::PtBr);
    assert_eq!(kinds(&due), [Kind::Ceiling]);
    assert_eq!(due[0].period, "2026");
    let text = &due[0].detail;
    assert!(
        text.contains("96.000,00") && text.contains("81.000,00") && text.contains("novembro de 2026"),
        "{text}"
    );
    assert!(text.contains("20%"), "the tolerance rule: {text}");
}

#[test]
fn the_last_business_day_of_a_month_skips_back_over_weekends() {
    let calendar = facts::calendar();
    // 2027-01-31 is a Sunday (2027-01-01 is a Friday): Friday the 29th.
    assert_eq!(last_business_day(2027, 1, calendar).iso(), "2027-01-29");
    // 2026-12-31 is a Thursday, not a national holiday.
    assert_eq!(last_business_day(2026, 12, calendar).iso(), "2026-12-31");
    // 2026-10-31 is a Saturday: Friday the 30th.
    assert_eq!(last_business_day(2026, 10, calendar).iso(), "2026-10-30");
}

/// A services MEI's 2026, month by month.
fn year_2026(monthly: f64) -> Vec<MonthResult> {
    (1..=12).map(|m| month(2026, m, monthly)).collect()
}

#[test]
fn in_january_a_mei_whose_year_passed_the_ceiling_by_up_to_20_percent_is_told_what_to_do_by_when() {
    let calendar = facts::calendar();
    let today = CivilDate { year: 2027, month: 1, day: 5 };
    // 12 × R$ 7.500 = R$ 90.000: over R$ 81.000 by R$ 9.000, within R$ 97.200 (LC 123/2006
    // art. 18-A §7º III a). 11 × 7.500 = 82.500 > 81.000: passed in November, so the report was
    // due on the last business day of December, Thursday 31/12/2026 (Res. CGSN 140/2018 art. 115).
    // Services pay 6 % on the excess: R$ 540,00, with January's DAS (art. 18-A §10), due on the
    // 20th of February — 2027-02-20 is a Saturday: Monday 22/02/2027.
    let services = Some(taxes::Activity::Services);
    let over = year_over(today, &year_2026(7_500.0), None, services, calendar).unwrap();
    assert!(over.within_tolerance);
    assert_eq!(over.crossed, YearMonth { year: 2026, month: 11 });
    assert_eq!(over.report_by.iso(), "2026-12-31");
    let tax = over.excess_tax.unwrap();
    assert_eq!((tax.amount, tax.rate, tax.due.iso()), (540.0, 0.06, "2027-02-22".into()));
    let said = what_to_do(&over, today, Language::PtBr);
    for part in [
        "90.000,00",
        "81.000,00",
        "novembro de 2026",
        "o prazo era 31/12/2026",
        "540,00",
        "22/02/2027",
        "DASN-SIMEI",
    ] {
        assert!(said.contains(part), "{part}: {said}");
    }
    // The scheduler sends it once for 2026, to a MEI who asked for tax reminders.
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    let profile = Profile { activity: services, ..MEI };
    let sent = due(at(2027, 1, 5, 10), &prefs, &profile, &year_2026(7_500.0), Language::PtBr);
    assert_eq!(kinds(&sent), [Kind::YearOver]);
    assert_eq!(sent[0].period, "2026");
    // Not in March, not for a year within the ceiling, not without consent.
    assert!(
        year_over(CivilDate { year: 2027, month: 3, day: 1 }, &year_2026(7_500.0), None, services, calendar)
            .is_none()
    );
    assert!(year_over(today, &year_2026(6_000.0), None, services, calendar).is_none());
    let silent = Preferences { tax_reminders: false, monthly_checkin: false, ..consenting() };
    assert!(due(at(2027, 1, 5, 10), &silent, &profile, &year_2026(7_500.0), Language::PtBr).is_empty());
}

#[test]
fn a_year_passed_in_december_is_reported_by_the_last_business_day_of_january() {
    let calendar = facts::calendar();
    let today = CivilDate { year: 2027, month: 1, day: 5 };
    // 12 × R$ 6.800 = R$ 81.600; 11 × 6.800 = 74.800: passed in December, report by the last
    // business day of January 2027, Friday the 29th (the 31st is a Sunday). Commerce: 4 % of
    // R$ 600 = R$ 24,00.
    let over =
        year_over(today, &year_2026(6_800.0), None, Some(taxes::Activity::Commerce), calendar).unwrap();
    assert_eq!(over.report_by.iso(), "2027-01-29");
    assert_eq!(over.excess_tax.unwrap().amount, 24.0);
    let said = what_to_do(&over, today, Language::En);
    assert!(said.contains("by 2027-01-29") && !said.contains("late"), "{said}");
}

#[test]
fn a_year_more_than_20_percent_over_goes_back_to_january_without_an_excess_das() {
    let calendar = facts::calendar();
    let today = CivilDate { year: 2027, month: 2, day: 10 };
    // 12 × R$ 10.000 = R$ 120.000 > R$ 97.200 (art. 18-A §7º III b); 9 × 10.000 = 90.000 > 81.000:
    // passed in September, report due Friday 30/10/2026 (the 31st is a Saturday).
    let over = year_over(today, &year_2026(10_000.0), None, None, calendar).unwrap();
    assert!(!over.within_tolerance && over.excess_tax.is_none());
    assert_eq!(over.report_by.iso(), "2026-10-30");
    let said = what_to_do(&over, today, Language::PtBr);
    assert!(said.contains("1º de janeiro de 2026") && said.contains("o prazo era 30/10/2026"), "{said}");
    assert!(!said.contains("DAS do excesso"), "{said}");
}

#[test]
fn a_simples_company_is_reminded_of_its_half_yearly_ibs_cbs_choice_in_april_and_september() {
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    let simples = Profile { simples: true, ..Profile::default() };
    // 2027-04-01 is a Thursday: the window's first business day; its last is Friday 30/04/2027.
    let april = due(at(2027, 4, 1, 10), &prefs, &simples, &[], Language::PtBr);
    assert_eq!(kinds(&april), [Kind::SimplesChoice]);
    let said = &april[0].detail;
    assert!(said.contains("30/04/2027") && said.contains("2º semestre de 2027"), "{said}");
    // 2027-09-01 is a Wednesday; 2027-09-30 a Thursday: the choice for 2028's first half.
    let september = due(at(2027, 9, 1, 10), &prefs, &simples, &[], Language::En);
    assert_eq!(kinds(&september), [Kind::SimplesChoice]);
    assert!(september[0].detail.contains("2027-09-30") && september[0].detail.contains("first half of 2028"));
    // 2028-04-01 is a Saturday: the reminder comes on Monday the 3rd, not before.
    assert!(due(at(2028, 4, 1, 10), &prefs, &simples, &[], Language::PtBr).is_empty());
    assert_eq!(kinds(&due(at(2028, 4, 3, 10), &prefs, &simples, &[], Language::PtBr)), [Kind::SimplesChoice]);
    // Before the reform's first window (September 2026) there is nothing to choose; a MEI never does.
    assert!(due(at(2026, 4, 1, 10), &prefs, &simples, &[], Language::PtBr).is_empty());
    assert!(due(at(2027, 4, 1, 10), &prefs, &MEI, &[], Language::PtBr).is_empty());
}

#[test]
fn a_company_in_lucro_presumido_is_told_in_september_it_may_opt_into_the_simples() {
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    let presumido = Profile { other_regime: true, ..Profile::default() };
    // 2027-09-01 is a Wednesday; the option closes on the last business day, Thursday 30/09/2027,
    // for 2028 (LC 123/2006 art. 16, as LC 214/2025 art. 516 has it).
    let september = due(at(2027, 9, 1, 10), &prefs, &presumido, &[], Language::PtBr);
    assert_eq!(kinds(&september), [Kind::SimplesOption]);
    assert!(september[0].detail.contains("30/09/2027") && september[0].detail.contains("para 2028"));
    assert_eq!(september[0].period, "2027");
    // Not in other months, not to a Simples company or a MEI.
    assert!(due(at(2027, 4, 1, 10), &prefs, &presumido, &[], Language::PtBr).is_empty());
    let simples = Profile { simples: true, ..Profile::default() };
    assert_eq!(kinds(&due(at(2027, 9, 1, 10), &prefs, &simples, &[], Language::PtBr)), [Kind::SimplesChoice]);
}

#[test]
fn a_kind_is_read_back_from_its_key_and_goes_as_its_template() {
    assert_eq!(Kind::parse("dasn"), Some(Kind::Dasn));
    assert_eq!(Kind::parse("x"), None);
    assert_eq!(Kind::Das.template(), Template::Reminder);
    assert_eq!(Kind::Checkin.template(), Template::Checkin);
}

#[test]
fn the_month_a_mei_s_recorded_revenue_passes_the_ceiling_it_is_told_to_report_by_the_end_of_the_next() {
    let calendar = facts::calendar();
    // 11 × R$ 7.500 = R$ 82.500 > R$ 81.000: passed in November 2026. Report by the last business
    // day of December, Thursday 31/12/2026 (LC 123/2006 art. 18-A §7º III; Res. CGSN 140/2018 art.
    // 115). At their pace the year ends at R$ 90.000, within R$ 97.200: commerce pays 4 % on the
    // R$ 9.000 excess, R$ 360,00, with January's DAS on Monday 22/02/2027; an ME from 1/1/2027.
    let months: Vec<MonthResult> = (1..=11).map(|m| month(2026, m, 7_500.0)).collect();
    let today = CivilDate { year: 2026, month: 12, day: 1 };
    let commerce = Some(taxes::Activity::Commerce);
    let over = passed_this_year(today, &months, None, commerce, calendar).unwrap();
    assert!(!over.closed && over.within_tolerance);
    assert_eq!(
        (over.crossed, over.report_by.iso()),
        (YearMonth { year: 2026, month: 11 }, "2026-12-31".into())
    );
    let tax = over.excess_tax.unwrap();
    assert_eq!((tax.amount, tax.due.iso()), (360.0, "2027-02-22".into()));
    let said = what_to_do(&over, today, Language::PtBr);
    for part in ["até 31/12/2026", "1º de janeiro de 2027", "ME no Simples Nacional", "360,00", "22/02/2027"]
    {
        assert!(said.contains(part), "{part}: {said}");
    }
    // Not before the recorded months pass it (the pace alone warns, it does not set a deadline).
    let october: Vec<MonthResult> = (1..=10).map(|m| month(2026, m, 7_500.0)).collect();
    assert!(
        passed_this_year(CivilDate { year: 2026, month: 11, day: 2 }, &october, None, commerce, calendar)
            .is_none()
    );
    // The reminder goes once, for the month it passed.
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    let profile = Profile { activity: commerce, ..MEI };
    let sent = due(at(2026, 12, 1, 10), &prefs, &profile, &months, Language::PtBr);
    assert_eq!(kinds(&sent), [Kind::Ceiling]);
    assert_eq!(sent[0].period, "2026-11");
    assert!(sent[0].detail.contains("até 31/12/2026"), "{}", sent[0].detail);
    // Over the tolerance at the pace (R$ 10.000 a month: R$ 120.000): back to January, no excess DAS.
    let fast: Vec<MonthResult> = (1..=9).map(|m| month(2026, m, 10_000.0)).collect();
    let back = passed_this_year(CivilDate { year: 2026, month: 10, day: 1 }, &fast, None, commerce, calendar)
        .unwrap();
    assert!(!back.within_tolerance && back.excess_tax.is_none());
    let said = what_to_do(&back, CivilDate { year: 2026, month: 10, day: 1 }, Language::PtBr);
    assert!(said.contains("1º de janeiro de 2026") && said.contains("até 30/10/2026"), "{said}");
}

#[test]
fn a_mei_that_left_on_1_january_pays_december_s_das_mei_then_declares_in_the_pgdas_d() {
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    let left = Profile { left_mei: Some(2026), ..MEI };
    // 15/01/2027, a Friday: December's DAS-MEI (her last), no PGDAS-D yet.
    let january = due(at(2027, 1, 15, 10), &prefs, &left, &[], Language::PtBr);
    assert_eq!(kinds(&january), [Kind::Das]);
    assert!(january[0].detail.contains("DAS do MEI de dezembro"), "{}", january[0].detail);
    // 15/02/2027, a Monday: January's PGDAS-D as an ME, no DAS-MEI.
    let february = due(at(2027, 2, 15, 10), &prefs, &left, &[], Language::PtBr);
    assert_eq!(kinds(&february), [Kind::SimplesDas]);
    // No DEFIS in March 2027 (2026 was a MEI year); the DASN-SIMEI of 2026 still in May.
    assert!(
        due(at(2027, 3, 15, 10), &prefs, &left, &[], Language::PtBr).iter().all(|d| d.kind != Kind::Defis)
    );
    let may = due(at(2027, 5, 17, 10), &prefs, &left, &[], Language::PtBr);
    assert!(kinds(&may).contains(&Kind::Dasn), "{may:?}");
}

#[test]
fn a_presumido_company_hears_of_its_quarterly_irpj_csll_its_pis_cofins_through_2026_and_that_the_cbs_date_is_not_fixed()
 {
    let prefs = Preferences { monthly_checkin: false, ..consenting() };
    let presumido = Profile { other_regime: true, presumido: true, ..Profile::default() };
    let said = |y, m, d| due(at(y, m, d, 10), &prefs, &presumido, &[], Language::PtBr);
    // 15/10/2026, a Thursday: the 3rd quarter's IRPJ/CSLL by the last business day of October,
    // Friday 30/10/2026 (Lei 9.430/1996 art. 5º); September's PIS/Cofins on the 25th — a Sunday, so
    // the business day before, Friday 23/10/2026 (MP 2.158-35/2001 art. 18 II).
    let october = said(2026, 10, 15);
    assert_eq!(kinds(&october), [Kind::IrpjCsll, Kind::PisCofins]);
    assert_eq!((october[0].period.as_str(), october[1].period.as_str()), ("2026-Q3", "2026-09"));
    assert!(
        october[0].detail.contains("30/10/2026") && october[1].detail.contains("23/10/2026"),
        "{october:?}"
    );
    // 15/01/2027, a Friday: the 4th quarter's by Friday 29/01/2027; December 2026's PIS/Cofins, the
    // last, on Monday 25/01/2027; no CBS yet (December is 2026's).
    let january = said(2027, 1, 15);
    assert_eq!(kinds(&january), [Kind::IrpjCsll, Kind::PisCofins]);
    assert!(
        january[0].detail.contains("29/01/2027") && january[1].detail.contains("25/01/2027"),
        "{january:?}"
    );
    // 15/02/2027, a Monday: January's CBS and IBS, with no invented date; PIS and Cofins are gone.
    let february = said(2027, 2, 15);
    assert_eq!(kinds(&february), [Kind::CbsIbs]);
    assert!(february[0].detail.contains("regulamento ainda não publicado"), "{}", february[0].detail);
    assert!(!february[0].detail.contains("vencem em"), "{}", february[0].detail);
    // Nothing on other days, nothing to a MEI or a Simples company.
    assert!(said(2027, 2, 16).is_empty());
    assert!(
        due(
            at(2027, 2, 15, 10),
            &prefs,
            &Profile { simples: true, ..Profile::default() },
            &[],
            Language::PtBr
        )
        .iter()
        .all(|d| d.kind != Kind::CbsIbs)
    );
}
