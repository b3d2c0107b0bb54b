//! Calendar dates from Unix time (UTC): the one place the civil-date arithmetic lives.

pub const DAY_MS: i64 = 86_400_000;

/// A day of the proleptic Gregorian calendar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CivilDate {
    pub year: i64,
    pub month: i64,
    pub day: i64,
}

impl CivilDate {
    /// The date `days` days after 1970-01-01 (Howard Hinnant's civil_from_days).
    pub fn from_days(days: i64) -> Self {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Self { year, month, day }
    }

    /// The date of a Unix time in milliseconds.
    pub fn from_ms(ms: i64) -> Self {
        Self::from_days(ms.div_euclid(DAY_MS))
    }

    /// YYYY-MM-DD.
    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// DD/MM/YYYY, as Brazilians write dates.
    pub fn brazilian(self) -> String {
        format!("{:02}/{:02}/{}", self.day, self.month, self.year)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_since_the_epoch_read_as_calendar_dates() {
        assert_eq!(CivilDate::from_days(0).iso(), "1970-01-01");
        assert_eq!(CivilDate::from_days(19_782).iso(), "2024-02-29");
        assert_eq!(CivilDate::from_days(20_778).brazilian(), "21/11/2026");
        assert_eq!(CivilDate::from_ms(-1).iso(), "1969-12-31");
    }
}
