//! A MEI's closed year over its ceiling. In the new year's first months (January through the
//! facts' `yearOver.showThroughMonth`) the owner sees, on the dashboard's card, in
//! `GET /api/results` and on WhatsApp, what to do and by when: report leaving the MEI on the Simples
//! Nacional portal by the last business day of the month after the excess (Res. CGSN 140/2018
//! art. 115); up to the tolerance, pay the tax on the excess, once and without charges, with
//! January's DAS (LC 123/2006 art. 18-A §10), an ME in the Simples Nacional from 1 January; past
//! it, pay as a Simples company back to 1 January of the year of the excess (art. 18-A §7º III b).
//! The same is said in the year itself from the month the recorded revenue passes the limit
//! ([`passed_this_year`]): report by the last business day of the next month; within the tolerance
//! the DAS on the excess with January's and the ME from 1 January; past it, back to January.
//! Every date and figure comes from the dated facts (`facts::calendar`, `facts::taxes`).

use super::{business_day_from, day_of, in_words};
use crate::{
    clock::CivilDate,
    facts::{self, Calendar},
    locale::Language,
    plan::{
        money::{format_brl, taxes::Activity},
        month::YearMonth,
        tracking::{
            ceiling::{CeilingProjection, ceiling_projection},
            results::MonthResult,
        },
    },
};

/// A year over the ceiling, and what it asks of the owner now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct YearOver {
    /// The year is over (it is shown in the next one); false while it runs (the recorded months
    /// passed the limit already).
    pub closed: bool,
    /// The closed year against its ceiling.
    pub projection: CeilingProjection,
    /// The month the year's revenue passed the limit.
    pub crossed: YearMonth,
    /// Up to the tolerance (the MEI leaves next 1 January), or past it (back to 1 January).
    pub within_tolerance: bool,
    /// The last day to report leaving the MEI: the last business day of the month after the excess.
    pub report_by: CivilDate,
    /// Within the tolerance: the tax on the excess, its rate, and the day it is due (with
    /// January's DAS).
    pub excess_tax: Option<ExcessTax>,
    /// How many of the year's months were recorded (fewer than 12: the rest at their pace).
    pub recorded_months: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExcessTax {
    pub amount: f64,
    pub rate: f64,
    pub due: CivilDate,
}

/// The last business day of a month.
pub fn last_business_day(year: i64, month: i64, calendar: &Calendar) -> CivilDate {
    super::business_day_before(day_of(year, month, 31), calendar)
}

/// Last year over the MEI's ceiling, while `today` is in the months it is shown; None otherwise or
/// when last year stayed within it. `activity` picks the rate of the excess (without it, or with
/// both, the highest, as the plan's taxes do).
pub fn year_over(
    today: CivilDate,
    results: &[MonthResult],
    opened: Option<YearMonth>,
    activity: Option<Activity>,
    calendar: &Calendar,
) -> Option<YearOver> {
    if today.month > calendar.year_over.show_through_month {
        return None;
    }
    let projection = ceiling_projection(results, today.year - 1, opened, None)?;
    exceeded(projection, true, results, activity, calendar)
}

/// This year's recorded months already passed the MEI's ceiling (not the pace: the months
/// recorded): what to do and by when, from that month on. None before.
pub fn passed_this_year(
    today: CivilDate,
    results: &[MonthResult],
    opened: Option<YearMonth>,
    activity: Option<Activity>,
    calendar: &Calendar,
) -> Option<YearOver> {
    let now = YearMonth { year: today.year, month: today.month };
    let projection = ceiling_projection(results, today.year, opened, Some(now))?;
    if !projection.passed {
        return None;
    }
    exceeded(projection, false, results, activity, calendar)
}

/// A year's projection past its ceiling as what it asks: the day to report (the last business day
/// of the month after the excess, LC 123/2006 art. 18-A §7º III), and within the tolerance the tax
/// on the excess, due with the next January's DAS.
fn exceeded(
    projection: CeilingProjection,
    closed: bool,
    results: &[MonthResult],
    activity: Option<Activity>,
    calendar: &Calendar,
) -> Option<YearOver> {
    let rule = &calendar.year_over;
    let year = projection.year;
    let crossed = projection.crossing?;
    let within_tolerance = projection.projected <= projection.tolerance_limit + 0.005;
    let after = if crossed.month == 12 {
        YearMonth { year: crossed.year + 1, month: 1 }
    } else {
        YearMonth { year: crossed.year, month: crossed.month + 1 }
    };
    let excess_tax = within_tolerance.then(|| {
        let rates = facts::taxes().mei_ceiling.value_on(&format!("{year:04}-12-31")).excess_rates;
        let rate = match activity {
            Some(Activity::Commerce) => rates.commerce,
            Some(Activity::Industry) => rates.industry,
            _ => rates.services,
        };
        // January's DAS is due on the DAS's day of the month after (the 20th, or the next
        // business day).
        let month = rule.excess_with_month + 1;
        let due = business_day_from(day_of(year + 1, month, calendar.das.due_day), calendar);
        let amount = ((projection.projected - projection.limit) * rate * 100.0).round() / 100.0;
        ExcessTax { amount, rate, due }
    });
    Some(YearOver {
        closed,
        projection,
        crossed,
        within_tolerance,
        report_by: last_business_day(after.year, after.month, calendar),
        excess_tax,
        recorded_months: results.iter().filter(|r| r.month.year == year).count(),
    })
}

/// What to do and by when, in the person's language, for the card, the API and WhatsApp. `today`
/// tells whether the day to report has passed.
pub fn what_to_do(over: &YearOver, today: CivilDate, lang: Language) -> String {
    let brl = |v: f64| format_brl(v, lang);
    let p = &over.projection;
    let (year, month) = (p.year, over.crossed.name(lang));
    let pace = if over.recorded_months < 12 {
        say!(lang, "calendar-year-over-months-recorded-the-others-at", recorded_months = over.recorded_months)
    } else {
        String::new()
    };
    let report = if today.iso() > over.report_by.iso() {
        say!(lang, "calendar-year-over-report-leaving-the-mei-on", report_by = in_words(over.report_by, lang))
    } else {
        say!(
            lang,
            "calendar-year-over-report-leaving-the-mei-on-2",
            report_by = in_words(over.report_by, lang)
        )
    };
    let fact = facts::get(&facts::calendar().year_over.fact);
    let source = fact.citation(lang);
    if !over.closed {
        return this_year(over, &report, lang);
    }
    match &over.excess_tax {
        Some(tax) => {
            let rate = rate_words(tax.rate, lang);
            say!(
                lang,
                "calendar-year-over-your-revenue-was-over-the",
                year,
                projected = brl(p.projected),
                pace,
                limit = brl(p.limit),
                month,
                report,
                amount = brl(tax.amount),
                rate,
                brl = brl(p.projected - p.limit),
                due = in_words(tax.due, lang),
                value = year + 1,
                source
            )
        }
        None => say!(
            lang,
            "calendar-year-over-your-revenue-was-more-than",
            year,
            projected = brl(p.projected),
            pace,
            limit = brl(p.limit),
            month,
            report,
            source
        ),
    }
}

/// A rate in percent as the person writes it, one decimal at most ("6", "4,5").
fn rate_words(rate: f64, lang: Language) -> String {
    let rate = format!("{:.1}", rate * 100.0).trim_end_matches(".0").to_owned();
    lang.decimal(&rate)
}

/// What to do in the year itself, once its recorded months passed the limit.
fn this_year(over: &YearOver, report: &str, lang: Language) -> String {
    let brl = |v: f64| format_brl(v, lang);
    let p = &over.projection;
    let (year, month) = (p.year, over.crossed.name(lang));
    let source = facts::get(&facts::calendar().year_over.fact).citation(lang);
    match &over.excess_tax {
        Some(tax) => {
            let rate = rate_words(tax.rate, lang);
            say!(
                lang,
                "calendar-year-over-the-months-recorded-in-add",
                year,
                revenue_so_far = brl(p.revenue_so_far),
                limit = brl(p.limit),
                month,
                projected = brl(p.projected),
                tolerance_limit = brl(p.tolerance_limit),
                report,
                amount = brl(tax.amount),
                rate,
                brl = brl(p.projected - p.limit),
                due = in_words(tax.due, lang),
                value = year + 1,
                source
            )
        }
        None => say!(
            lang,
            "calendar-year-over-the-months-recorded-in-add-2",
            year,
            revenue_so_far = brl(p.revenue_so_far),
            limit = brl(p.limit),
            month,
            projected = brl(p.projected),
            tolerance_limit = brl(p.tolerance_limit),
            report,
            source
        ),
    }
}
