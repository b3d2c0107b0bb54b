//! What Sócio sends a person who asked for it, and when: the monthly check-in (last month's
//! numbers) on their day and hour, and the fiscal calendar — the MEI's DAS before the 20th, the
//! DASN-SIMEI in May, the DEFIS of a Simples Nacional company in March, a Lucro Presumido
//! company's IRPJ/CSLL, PIS/Cofins and (from 2027) CBS/IBS ([`presumido`]), and the MEI's yearly
//! revenue ceiling as soon as the pace of the recorded months would cross it, and in the new year
//! what a MEI whose last year passed it must do by when ([`year_over`]). Pure functions of an
//! instant in São Paulo, the person's choices and their recorded months; every date and figure
//! comes from the dated facts (`facts::calendar`), none is written here. Nothing is ever due
//! between 20:00 and 08:00. The scheduler (`conversation::proactive`) sends each once per person
//! and period.

use super::{
    ceiling::{CeilingProjection, ceiling_projection, ceiling_warning},
    reminders::Preferences,
    results::{self, MonthResult, PlanForecast},
};
use crate::error::AppError;
use crate::plan::{
    money::{reform_choice::Window, taxes},
    month::YearMonth,
    sections::Step,
    store::{self, Detail, Plan},
};
use crate::{
    clock::{CivilDate, month_name},
    db::Db,
    facts::{self, Calendar},
    locale::Language,
    whatsapp::templates::Template,
};

/// No proactive message from 20:00 to 08:00 (São Paulo).
pub const QUIET_FROM_HOUR: i64 = 20;
pub const QUIET_UNTIL_HOUR: i64 = 8;
/// The check-in's hour when the person chose none.
pub const DEFAULT_HOUR: i64 = 9;

/// What a reminder is about; with its period, the unique key of a sending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// "How did October go?": the monthly check-in.
    Checkin,
    /// The MEI's monthly DAS.
    Das,
    /// The MEI's yearly declaration.
    Dasn,
    /// A Simples Nacional company's monthly DAS (declared in the PGDAS-D).
    SimplesDas,
    /// The Simples Nacional company's yearly declaration.
    Defis,
    /// The MEI's revenue ceiling, at the pace of the recorded months.
    Ceiling,
    /// Last year over the MEI's ceiling: what to do and by when, in the new year.
    YearOver,
    /// A Simples company's half-yearly choice: IBS and CBS inside the DAS or outside it.
    SimplesChoice,
    /// A company in another regime may opt into the Simples for the next year.
    SimplesOption,
    /// Lucro Presumido's quarterly IRPJ and CSLL.
    IrpjCsll,
    /// Lucro Presumido's monthly PIS and Cofins (through December 2026).
    PisCofins,
    /// The reform's monthly CBS and IBS outside the Simples (from January 2027).
    CbsIbs,
}

impl Kind {
    pub const ALL: [Kind; 12] = [
        Kind::Checkin,
        Kind::Das,
        Kind::Dasn,
        Kind::SimplesDas,
        Kind::Defis,
        Kind::Ceiling,
        Kind::YearOver,
        Kind::SimplesChoice,
        Kind::SimplesOption,
        Kind::IrpjCsll,
        Kind::PisCofins,
        Kind::CbsIbs,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Kind::Checkin => "checkin",
            Kind::Das => "das",
            Kind::Dasn => "dasn",
            Kind::SimplesDas => "simples_das",
            Kind::Defis => "defis",
            Kind::Ceiling => "ceiling",
            Kind::YearOver => "year_over",
            Kind::SimplesChoice => "simples_choice",
            Kind::SimplesOption => "simples_option",
            Kind::IrpjCsll => "irpj_csll",
            Kind::PisCofins => "pis_cofins",
            Kind::CbsIbs => "cbs_ibs",
        }
    }

    pub fn parse(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.key() == key)
    }

    /// The WhatsApp template it goes as outside the 24-hour window.
    pub fn template(self) -> Template {
        match self {
            Kind::Checkin => Template::Checkin,
            _ => Template::Reminder,
        }
    }
}

/// What the person's business is, as the fiscal calendar needs it (from the plan's legal step).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// A MEI (business type `mei` or regime `simei`).
    pub mei: bool,
    /// A company in the Simples Nacional that is not a MEI.
    pub simples: bool,
    /// The month the business opened, when it opened in a year we can see (the ceiling is then
    /// proportional to the months of activity).
    pub opened: Option<YearMonth>,
    /// What it does, when the legal step says (the rate of a MEI's excess).
    pub activity: Option<taxes::Activity>,
    /// A company in Lucro Presumido or Lucro Real (it may opt into the Simples).
    pub other_regime: bool,
    /// A company in Lucro Presumido (its federal calendar: IRPJ/CSLL, PIS/Cofins, CBS/IBS).
    pub presumido: bool,
    /// A MEI whose recorded revenue of this year (the year given) passed the ceiling: an ME in the
    /// Simples Nacional from the next 1 January — unless the Legal step, changed since, still says
    /// MEI.
    pub left_mei: Option<i64>,
}

impl Profile {
    /// From the plan's legal step (business type, tax regime) and idea step (stage): a business
    /// not yet running opened in its first recorded month. `today`: a MEI whose year before passed
    /// the ceiling is, from 1 January, the ME it became (its Legal step unchanged since).
    pub fn of(plan: Option<&Plan>, results: &[MonthResult], today: CivilDate) -> Self {
        let Some(plan) = plan else { return Self::default() };
        let legal = &plan.section(Step::Legal).data;
        let new =
            matches!(plan.section(Step::Idea).data["stage"].as_str(), Some("idea" | "planning" | "started"));
        let opened = new.then(|| results.iter().map(|r| r.month).min()).flatten();
        let mei = taxes::is_mei(legal);
        // The plan's taxes' own rule (last year's recorded revenue, the owner's word since 1 January).
        let history = taxes::MeiHistory::of(plan);
        let left_mei = history.exit_on(&today.iso()).filter(|_| mei).map(|exit| exit.year);
        Self {
            mei,
            simples: taxes::in_simples(legal),
            opened,
            activity: legal["activity"].as_str().and_then(taxes::Activity::parse),
            other_regime: !mei
                && matches!(legal["taxRegime"].as_str(), Some("lucro_presumido" | "lucro_real")),
            presumido: !mei && legal["taxRegime"].as_str() == Some("lucro_presumido"),
            left_mei,
        }
    }

    /// Pays the MEI's DAS in `today`'s month: a MEI, or one that left on 1 January paying
    /// December's DAS in January.
    fn pays_das_mei(&self, today: CivilDate) -> bool {
        match self.left_mei {
            Some(year) => today.month == 1 && year == today.year - 1,
            None => self.mei,
        }
    }

    /// Declares in the PGDAS-D in `today`'s month: a Simples company, or the ME a MEI became, from
    /// February (January's month is declared then).
    fn declares_pgdas(&self, today: CivilDate) -> bool {
        (self.simples && !self.mei) || self.left_mei.is_some_and(|_| today.month > 1)
    }
}

/// A reminder due now.
#[derive(Clone, Debug, PartialEq)]
pub struct Due {
    pub kind: Kind,
    /// `2026-10` for a month's, `2026` for a year's: with the kind, sent once.
    pub period: String,
    /// The template's variables after the person's name.
    pub detail: String,
}

/// The hour it is in São Paulo at `now` (0-23).
pub fn hour_in_sao_paulo(now: i64) -> i64 {
    let today = CivilDate::in_sao_paulo(now);
    (now - today.starts_at()).div_euclid(3_600_000)
}

/// Whether `now` is in the quiet hours (20:00 to 08:00 in São Paulo).
pub fn quiet(now: i64) -> bool {
    let hour = hour_in_sao_paulo(now);
    !(QUIET_UNTIL_HOUR..QUIET_FROM_HOUR).contains(&hour)
}

/// A national holiday, a weekend day or a day banks close (Carnival) is not a business day.
pub fn is_business_day(date: CivilDate, calendar: &Calendar) -> bool {
    let weekday = (date.days() + 4).rem_euclid(7); // 1970-01-01 was a Thursday; 0 is Sunday
    if weekday == 0 || weekday == 6 {
        return false;
    }
    let month_day = format!("{:02}-{:02}", date.month, date.day);
    let iso = date.iso();
    let h = &calendar.holidays;
    !h.every_year.contains(&month_day) && !h.good_friday.contains(&iso) && !h.banks_closed.contains(&iso)
}

/// The date itself when it is a business day, else the business day before (a payment brought
/// forward: PIS and Cofins; the last business day of a month).
pub fn business_day_before(date: CivilDate, calendar: &Calendar) -> CivilDate {
    let mut day = date;
    while !is_business_day(day, calendar) {
        day = day.plus_days(-1);
    }
    day
}

/// The date itself when it is a business day, else the next one.
pub fn business_day_from(date: CivilDate, calendar: &Calendar) -> CivilDate {
    let mut day = date;
    while !is_business_day(day, calendar) {
        day = day.plus_days(1);
    }
    day
}

/// Day `day` of a month, or its last day when the month is shorter.
fn day_of(year: i64, month: i64, day: i64) -> CivilDate {
    let first_of_next = if month == 12 {
        CivilDate { year: year + 1, month: 1, day: 1 }
    } else {
        CivilDate { year, month: month + 1, day: 1 }
    };
    let last = first_of_next.plus_days(-1).day;
    CivilDate { year, month, day: day.min(last) }
}

/// The day of this month's check-in: the person's day, or the first business day.
pub fn checkin_day(year: i64, month: i64, prefs: &Preferences, calendar: &Calendar) -> CivilDate {
    match prefs.day {
        Some(day) => day_of(year, month, i64::from(day)),
        None => business_day_from(CivilDate { year, month, day: 1 }, calendar),
    }
}

/// What the person's plan expects of a month, and for a MEI the ceiling: last year's when it
/// passed and the new year has just begun ([`year_over`]), else the current year's projection
/// (São Paulo; None for another business or without a month recorded), from one read of the plan
/// (reading never creates one).
pub(in crate::plan) async fn outlook(
    db: &Db,
    user_id: &str,
    months: &[MonthResult],
    now: i64,
) -> Result<(Option<PlanForecast>, Option<CeilingOutlook>), AppError> {
    let mut conn = db.pool().acquire().await?;
    let plan = store::find(&mut conn, user_id, Detail::Sections, now).await?;
    let forecast = plan.as_ref().and_then(results::forecast);
    let today = CivilDate::in_sao_paulo(now);
    let profile = Profile::of(plan.as_ref(), months, today);
    if !profile.mei {
        return Ok((forecast, None));
    }
    let calendar = facts::calendar();
    let ceiling = match year_over(today, months, profile.opened, profile.activity, calendar) {
        Some(over) => Some(CeilingOutlook::YearOver(over)),
        None => match passed_this_year(today, months, profile.opened, profile.activity, calendar) {
            Some(passed) => Some(CeilingOutlook::Passed(passed)),
            None => {
                let now = YearMonth { year: today.year, month: today.month };
                ceiling_projection(months, today.year, profile.opened, Some(now)).map(CeilingOutlook::Year)
            }
        },
    };
    Ok((forecast, ceiling))
}

/// A MEI's ceiling as the dashboard and `GET /api/results` show it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CeilingOutlook {
    /// The current year at the pace of its recorded months.
    Year(CeilingProjection),
    /// This year's recorded months passed it: what to do and by when, from that month on.
    Passed(YearOver),
    /// Last year passed it: what to do and by when.
    YearOver(YearOver),
}

/// What is due for a person at `now`, in their language: nothing in the quiet hours, nothing they
/// did not ask for. `results` are their recorded months (any order). The caller sends each once.
pub fn due(
    now: i64,
    prefs: &Preferences,
    profile: &Profile,
    results: &[MonthResult],
    lang: Language,
) -> Vec<Due> {
    let calendar = facts::calendar();
    if quiet(now) || !prefs.active() {
        return Vec::new();
    }
    let today = CivilDate::in_sao_paulo(now);
    let hour = prefs.hour.map_or(DEFAULT_HOUR, i64::from);
    if hour_in_sao_paulo(now) < hour {
        return Vec::new();
    }
    let last_month = YearMonth { year: today.year, month: today.month }.previous();
    let mut due = Vec::new();
    let recorded_last_month = results.iter().any(|r| r.month == last_month);
    if prefs.monthly_checkin
        && !recorded_last_month
        && today == checkin_day(today.year, today.month, prefs, calendar)
    {
        let detail = month_name(last_month.month, lang).unwrap_or_default().to_owned();
        due.push(Due { kind: Kind::Checkin, period: last_month.key(), detail });
    }
    if prefs.tax_reminders {
        due.extend(fiscal_deadlines(today, profile, results, lang, calendar));
    }
    due
}

/// The fiscal calendar's reminders due `today` for a business of this `profile`: the month's
/// (the MEI's DAS, the Simples' PGDAS-D, the reform's choice and the option for the Simples), the
/// Lucro Presumido's, the year's declarations (DASN-SIMEI, DEFIS) and the MEI's ceiling.
fn fiscal_deadlines(
    today: CivilDate,
    profile: &Profile,
    results: &[MonthResult],
    lang: Language,
    calendar: &Calendar,
) -> Vec<Due> {
    let mut due = monthly_deadlines(today, profile, lang, calendar);
    if profile.presumido {
        due.extend(presumido::deadlines(today, lang, calendar));
    }
    due.extend(yearly_declarations(today, profile, lang, calendar));
    due.extend(ceiling_reminders(today, profile, results, lang, calendar));
    due
}

/// Whether `today` is the business day a reminder set for `day` of this month falls on.
fn reminds_on(today: CivilDate, day: i64, calendar: &Calendar) -> bool {
    today == business_day_from(day_of(today.year, today.month, day), calendar)
}

/// The month's: the MEI's DAS, a Simples company's PGDAS-D, the reform's IBS/CBS choice and the
/// option for the Simples Nacional.
fn monthly_deadlines(today: CivilDate, profile: &Profile, lang: Language, calendar: &Calendar) -> Vec<Due> {
    let this_month = YearMonth { year: today.year, month: today.month };
    let on = |day: i64| reminds_on(today, day, calendar);
    let mut due = Vec::new();
    if profile.pays_das_mei(today) && on(calendar.das.remind_day) {
        let due_on = business_day_from(day_of(today.year, today.month, calendar.das.due_day), calendar);
        let detail = das_notice(this_month.previous(), due_on, lang);
        due.push(Due { kind: Kind::Das, period: this_month.key(), detail });
    }
    if profile.declares_pgdas(today) && on(calendar.simples_das.remind_day) {
        let due_on =
            business_day_from(day_of(today.year, today.month, calendar.simples_das.due_day), calendar);
        let detail = simples_das_notice(this_month.previous(), due_on, lang);
        due.push(Due { kind: Kind::SimplesDas, period: this_month.key(), detail });
    }
    let choice = &calendar.simples_choice;
    if profile.declares_pgdas(today)
        && today.iso() >= choice.valid_from
        && choice.months.contains(&today.month)
        && on(1)
    {
        let detail = simples_choice_notice(today, last_business_day(today.year, today.month, calendar), lang);
        due.push(Due { kind: Kind::SimplesChoice, period: this_month.key(), detail });
    }
    let option = &calendar.simples_option;
    if profile.other_regime
        && today.iso() >= option.valid_from
        && option.months.contains(&today.month)
        && on(1)
    {
        let by = last_business_day(today.year, today.month, calendar);
        let detail = say!(
            lang,
            "tracking-calendar-by-the-company-may-opt",
            by = in_words(by, lang),
            value = today.year + 1
        );
        due.push(Due { kind: Kind::SimplesOption, period: today.year.to_string(), detail });
    }
    due
}

/// The year's declarations: the MEI's DASN-SIMEI and a Simples company's DEFIS.
fn yearly_declarations(today: CivilDate, profile: &Profile, lang: Language, calendar: &Calendar) -> Vec<Due> {
    let yearly = |deadline: &facts::YearlyDeadline| {
        (today.month == deadline.due_month && reminds_on(today, deadline.remind_day, calendar))
            .then(|| business_day_from(day_of(today.year, deadline.due_month, deadline.due_day), calendar))
    };
    let mut due = Vec::new();
    if profile.mei
        && let Some(due_on) = yearly(&calendar.dasn)
    {
        let detail = dasn_notice(today.year - 1, due_on, lang);
        due.push(Due { kind: Kind::Dasn, period: today.year.to_string(), detail });
    }
    // The DEFIS is about a year in the Simples as a company: not the year a MEI left.
    if (profile.simples && !profile.mei || profile.left_mei.is_some_and(|year| year < today.year - 1))
        && let Some(due_on) = yearly(&calendar.defis)
    {
        let detail = defis_notice(today.year - 1, due_on, lang);
        due.push(Due { kind: Kind::Defis, period: today.year.to_string(), detail });
    }
    due
}

/// The MEI's ceiling: the year closed over it, the recorded months past it, or the pace that would
/// pass it.
fn ceiling_reminders(
    today: CivilDate,
    profile: &Profile,
    results: &[MonthResult],
    lang: Language,
    calendar: &Calendar,
) -> Vec<Due> {
    let this_month = YearMonth { year: today.year, month: today.month };
    let mut due = Vec::new();
    if profile.mei
        && let Some(over) = year_over(today, results, profile.opened, profile.activity, calendar)
    {
        let detail = what_to_do(&over, today, lang);
        due.push(Due { kind: Kind::YearOver, period: over.projection.year.to_string(), detail });
    }
    // A MEI that left on 1 January has no MEI ceiling this year.
    let still_mei = profile.mei && profile.left_mei.is_none();
    let passed = passed_this_year(today, results, profile.opened, profile.activity, calendar);
    if still_mei && let Some(over) = passed {
        // Sent once, the month the recorded months pass it: what to do and by when.
        let detail = what_to_do(&over, today, lang);
        due.push(Due { kind: Kind::Ceiling, period: over.crossed.key(), detail });
    } else if still_mei
        && let Some(projection) = ceiling_projection(results, today.year, profile.opened, Some(this_month))
        && let Some(crossing) = projection.crossing
    {
        let detail = ceiling_warning(&projection, crossing, lang);
        due.push(Due { kind: Kind::Ceiling, period: today.year.to_string(), detail });
    }
    due
}

/// The next window for a Simples company's IBS/CBS choice from `today`: this April or September
/// while its month lasts (to its last business day), else the next one; what half-year it decides.
pub fn next_choice_window(today: CivilDate, calendar: &Calendar) -> Window {
    let months = &calendar.simples_choice.months;
    let mut at = YearMonth { year: today.year, month: today.month };
    for _ in 0..24 {
        let by = last_business_day(at.year, at.month, calendar);
        if months.contains(&at.month) && today.iso() <= by.iso() {
            let (half, year) = if at.month <= 6 { (2, at.year) } else { (1, at.year + 1) };
            return Window { by, half, year };
        }
        at = if at.month == 12 {
            YearMonth { year: at.year + 1, month: 1 }
        } else {
            YearMonth { month: at.month + 1, ..at }
        };
    }
    // The facts file always names a month (validated); a year on, the same month.
    Window { by: last_business_day(today.year + 1, today.month, calendar), half: 1, year: today.year + 2 }
}

fn in_words(date: CivilDate, lang: Language) -> String {
    date.written_in(lang)
}

fn month_words(month: YearMonth, lang: Language) -> String {
    month_name(month.month, lang).unwrap_or_default()
}

/// The MEI's monthly DAS for `month`, due on `due_on`.
fn das_notice(month: YearMonth, due_on: CivilDate, lang: Language) -> String {
    say!(
        lang,
        "tracking-calendar-the-mei-s-das-for",
        month = month_words(month, lang),
        due_on = in_words(due_on, lang)
    )
}

/// A Simples company's month: declared in the PGDAS-D and paid by `due_on`.
fn simples_das_notice(month: YearMonth, due_on: CivilDate, lang: Language) -> String {
    say!(
        lang,
        "tracking-calendar-s-pgdas-d-declaration-and",
        month = month_words(month, lang),
        due_on = in_words(due_on, lang)
    )
}

/// A Simples company's half-yearly IBS/CBS choice, made in `today`'s month by `by`: in the first
/// half of the year for the second, in the second for the next year's first.
fn simples_choice_notice(today: CivilDate, by: CivilDate, lang: Language) -> String {
    let (half, year) = if today.month <= 6 { (2, today.year) } else { (1, today.year + 1) };
    say!(lang, "tracking-calendar-by-you-choose-whether-the", by = in_words(by, lang), half, year)
}

/// The MEI's yearly declaration about `year`, due on `due_on`.
fn dasn_notice(year: i64, due_on: CivilDate, lang: Language) -> String {
    say!(lang, "tracking-calendar-the-mei-s-yearly-declaration", year, due_on = in_words(due_on, lang))
}

/// A Simples Nacional company's DEFIS about `year`, due on `due_on`.
fn defis_notice(year: i64, due_on: CivilDate, lang: Language) -> String {
    say!(lang, "tracking-calendar-the-simples-nacional-defis-for", year, due_on = in_words(due_on, lang))
}

mod presumido;
#[cfg(test)]
mod tests;
mod year_over;

pub use year_over::{ExcessTax, YearOver, last_business_day, passed_this_year, what_to_do, year_over};
