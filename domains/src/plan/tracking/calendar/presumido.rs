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
        let detail = lang.choose(
            format!(
                "o IRPJ e a CSLL do {quarter}º trimestre de {} (Lucro Presumido) vencem em {}: DARF em quota única, ou em até três quotas mensais, a primeira nessa data. {source}",
                month.year,
                in_words(by, lang)
            ),
            format!(
                "the IRPJ and CSLL of the {} quarter of {} (Lucro Presumido) are due on {}: one DARF, or up to three monthly quotas, the first on that day. {source}",
                ["first", "second", "third", "fourth"][(quarter - 1) as usize],
                month.year,
                in_words(by, lang)
            ),
        );
        due.push(Due { kind: Kind::IrpjCsll, period: format!("{}-Q{quarter}", month.year), detail });
    }
    // PIS and Cofins while the month's table charges them; the CBS and IBS once the reform's has started.
    let middle = format!("{}-15", month.key());
    let table = facts::taxes().lucro_presumido.value_on(&middle);
    if table.pis > 0.0 || table.cofins > 0.0 {
        let by = business_day_before(day_of(today.year, today.month, PIS_COFINS_DUE_DAY), calendar);
        let detail = lang.choose(
            format!(
                "o PIS e a Cofins de {} vencem em {} (DARF; no dia 25, ou no dia útil antes).",
                month_words(month, lang),
                in_words(by, lang)
            ),
            format!(
                "{}'s PIS and Cofins are due on {} (DARF; on the 25th, or the business day before).",
                month_words(month, lang),
                in_words(by, lang)
            ),
        );
        due.push(Due { kind: Kind::PisCofins, period: month.key(), detail });
    }
    if facts::taxes().cbs_ibs.period_on(&middle).1 != Validity::Upcoming {
        let detail = lang.choose(
            format!(
                "a CBS e o IBS de {} {}: são apurados por mês, mas o prazo de pagamento depende de regulamento ainda não publicado — confirme a data com o seu contador e veja se as suas notas os destacam.",
                month_words(month, lang),
                month.year
            ),
            format!(
                "{}'s {} CBS and IBS: they are worked out by month, but the payment's due date depends on regulation not yet published — confirm the date with your accountant and check that your invoices show them.",
                month_words(month, lang),
                month.year
            ),
        );
        due.push(Due { kind: Kind::CbsIbs, period: month.key(), detail });
    }
    due
}
