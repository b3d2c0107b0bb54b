//! The MEI's yearly revenue ceiling: the year's revenue at the pace of its recorded months against
//! the limit (proportional in the opening year), the warning Sócio sends when the pace would cross
//! it, and the tolerance rule with its source — every figure from the dated facts
//! (`facts::calendar`).

use super::results::MonthResult;
use crate::plan::{money, month::YearMonth};
use crate::{facts, locale::Language};

/// The ceiling at the pace of the year's recorded months.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CeilingProjection {
    pub year: i64,
    /// The year's limit in reais (proportional to the months of activity in the opening year).
    pub limit: f64,
    /// The limit plus the tolerance (up to it, the MEI stays until 31 December).
    pub tolerance_limit: f64,
    /// What the recorded months of the year add up to.
    pub revenue_so_far: f64,
    /// The recorded months plus the average of them for every month of activity not recorded.
    pub projected: f64,
    /// The month the pace would take the year's revenue over the limit; None when it would not.
    pub crossing: Option<YearMonth>,
    /// The recorded months alone passed the limit (in `crossing`).
    pub passed: bool,
    /// The ceiling's rules in force that year.
    pub rules: &'static facts::Ceiling,
}

/// The year's revenue at the pace of its recorded months against the MEI's ceiling; None without
/// a recorded month in `year`. The crossing is the month the recorded months passed the limit
/// (`passed`), else the month the pace would — never before `now` (the current month, for the
/// current year): months not recorded are estimates, and an estimate does not cross in the past.
pub fn ceiling_projection(
    results: &[MonthResult],
    year: i64,
    opened: Option<YearMonth>,
    now: Option<YearMonth>,
) -> Option<CeilingProjection> {
    // The ceiling in force that year (a change of the law takes effect on a 1st of January).
    let ceiling = facts::calendar().ceiling.value_on(&format!("{year:04}-01-01"));
    let months: Vec<&MonthResult> = results.iter().filter(|r| r.month.year == year).collect();
    if months.is_empty() {
        return None;
    }
    let first = opened.filter(|o| o.year == year).map_or(1, |o| o.month);
    let active = 13 - first;
    let limit = if first > 1 { ceiling.per_month_in_opening_year * active as f64 } else { ceiling.yearly };
    let revenue_so_far: f64 = months.iter().map(|r| r.revenue).sum();
    let pace = revenue_so_far / months.len() as f64;
    let (mut running, mut crossing) = (0.0, None);
    let (mut recorded, mut passed) = (0.0, None);
    for month in first..=12 {
        let this = YearMonth { year, month };
        let revenue = months.iter().find(|r| r.month.month == month).map(|r| r.revenue);
        running += revenue.unwrap_or(pace);
        recorded += revenue.unwrap_or(0.0);
        if crossing.is_none() && running > limit + 0.005 {
            crossing = Some(this);
        }
        if passed.is_none() && recorded > limit + 0.005 {
            passed = Some(this);
        }
    }
    let crossing = passed.or(crossing.map(|c| now.map_or(c, |now| c.max(now))));
    let projected = (running * 100.0).round() / 100.0;
    Some(CeilingProjection {
        year,
        limit,
        tolerance_limit: limit * (1.0 + ceiling.tolerance),
        revenue_so_far,
        projected,
        crossing,
        passed: passed.is_some(),
        rules: ceiling,
    })
}

/// The tolerance rule of the projection's year, with its source, in the language.
pub fn tolerance_rule(projection: &CeilingProjection, lang: Language) -> String {
    let fact = facts::get(&projection.rules.tolerance_fact);
    format!("{} {}", fact.text(lang), fact.citation(lang))
}

/// The ceiling warning: the pace, the month it would cross the limit, and the tolerance rule.
pub fn ceiling_warning(projection: &CeilingProjection, crossing: YearMonth, lang: Language) -> String {
    let brl = |v: f64| money::format_brl(v, lang);
    let tolerance = facts::get(&projection.rules.tolerance_fact);
    let month = crossing.name(lang);
    let when = say!(lang, "tracking-ceiling-crossing", passed = projection.passed, month);
    say!(
        lang,
        "tracking-ceiling-at-the-pace-of-the",
        year = projection.year,
        projected = brl(projection.projected),
        limit = brl(projection.limit),
        when,
        tolerance = tolerance.text(lang)
    )
}
