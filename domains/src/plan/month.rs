//! A month of the São Paulo calendar as the plan counts it — the months a person records results
//! for, the plan's forecasts and the fiscal calendar's deadlines — written `YYYY-MM`.

use crate::{
    clock::CivilDate,
    error::{AppError, Problem},
    locale::Language,
};

/// A month of the São Paulo calendar, `YYYY-MM`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct YearMonth {
    pub year: i64,
    pub month: i64,
}

impl YearMonth {
    /// A month as people write it in the contract (`2026-10`), not after the current São Paulo
    /// month.
    pub fn parse(field: &str, text: &str, now: i64) -> Result<Self, AppError> {
        let format = Problem::Format(said!("plan-month-format-a-month-as-yyyy-mm"));
        let text = text.trim();
        let (year, month) = text.split_once('-').ok_or_else(|| AppError::invalid(field, format.clone()))?;
        let valid =
            year.len() == 4 && month.len() == 2 && text.chars().all(|c| c.is_ascii_digit() || c == '-');
        let (Ok(year), Ok(month)) = (year.parse::<i64>(), month.parse::<i64>()) else {
            return Err(AppError::invalid(field, format));
        };
        if !valid || !(2000..=2100).contains(&year) || !(1..=12).contains(&month) {
            return Err(AppError::invalid(field, format));
        }
        let this = Self { year, month };
        if this > Self::current(now) {
            return Err(AppError::invalid(
                field,
                Problem::Format(said!("plan-month-format-a-month-that-has-already")),
            ));
        }
        Ok(this)
    }

    /// The month it is in São Paulo at `now`.
    pub fn current(now: i64) -> Self {
        let today = CivilDate::in_sao_paulo(now);
        Self { year: today.year, month: today.month }
    }

    pub fn key(self) -> String {
        format!("{:04}-{:02}", self.year, self.month)
    }

    /// The month before.
    pub fn previous(self) -> Self {
        if self.month == 1 {
            Self { year: self.year - 1, month: 12 }
        } else {
            Self { month: self.month - 1, ..self }
        }
    }

    /// Noon of the month's 15th in São Paulo: the instant a month's rules are taken at.
    pub fn middle(self) -> i64 {
        CivilDate { year: self.year, month: self.month, day: 15 }.starts_at() + 12 * 3_600_000
    }

    /// "outubro de 2026" / "October 2026".
    pub fn name(self, lang: Language) -> String {
        let name = crate::clock::month_name(self.month, lang).unwrap_or_default();
        say!(lang, "plan-month-text", name, year = self.year)
    }
}
