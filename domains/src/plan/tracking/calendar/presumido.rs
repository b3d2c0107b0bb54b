//! A Lucro Presumido company's federal calendar, every date from the law and the dated facts:
//! IRPJ and CSLL by quarter, paid by DARF by the last business day of the month after the quarter
//! (Lei 9.430/1996 arts. 1º and 5º; in up to three quotas, the first then); PIS and Cofins by month
//! through December 2026, due on the 25th of the next month, brought forward when that is not a
//! business day (MP 2.158-35/2001 art. 18 II, as Lei 11.933/2009 has it) — their last is
//! December 2026's, due in January 2027; from January 2027 the CBS and IBS of each month, whose due
//! date the regulation has not fixed yet (LC 214/2025 arts. 44 and 45): the reminder says so and
//! names no day.

use super::{
    Due, Kind, business_day_before, business_day_from, day_of, in_words, last_business_day, month_words,
};
use crate::{
    clock::CivilDate,
    facts::{self, Calendar, Validity},
    locale::Language,
    plan::month::YearMonth,
};

/// The day PIS and Cofins fall due, of the month after their month.
const PIS_COFINS_DUE_DAY: i64 = 25;
/// The day of the month the federal reminders come (or the next business day).
const REMIND_DAY: i64 = 15;

/// What is due `today` for a company in Lucro Presumido, in the language.
pub(super) fn deadlines(today: CivilDate, lang: Language, calendar: &Calendar) -> Vec<Due> {
    let remind = business_day_from(day_of(today.year, today.month, REMIND_DAY), calendar);
    if today != remind {
        return Vec::new();
    }
    let month = YearMonth { year: today.year, month: today.month }.previous();
    let source = facts::get("presumido.calendar").citation(lang);
    let mut due = Vec::new();
    if month.month % 3 == 0 {
        let quarter = month.month / 3;
        let by = last_business_day(today.year, today.month, calendar);
        let detail = say!(
            lang,
            "calendar-presumido-the-irpj-and-csll-of",
            quarter,
            year = month.year,
            by = in_words(by, lang),
            source
        );
        due.push(Due { kind: Kind::IrpjCsll, period: format!("{}-Q{quarter}", month.year), detail });
    }
    // PIS and Cofins while the month's table charges them; the CBS and IBS once the reform's has started.
    let middle = format!("{}-15", month.key());
    let table = facts::taxes().lucro_presumido.value_on(&middle);
    if table.pis > 0.0 || table.cofins > 0.0 {
        let by = business_day_before(day_of(today.year, today.month, PIS_COFINS_DUE_DAY), calendar);
        let detail = say!(
            lang,
            "calendar-presumido-s-pis-and-cofins-are",
            month = month_words(month, lang),
            by = in_words(by, lang)
        );
        due.push(Due { kind: Kind::PisCofins, period: month.key(), detail });
    }
    if facts::taxes().cbs_ibs.period_on(&middle).1 != Validity::Upcoming {
        let detail = say!(
            lang,
            "calendar-presumido-s-cbs-and-ibs-they",
            month = month_words(month, lang),
            year = month.year
        );
        due.push(Due { kind: Kind::CbsIbs, period: month.key(), detail });
    }
    due
}
