//! The product's clock: every day boundary it shows or counts is a day in São Paulo
//! (`America/Sao_Paulo`), read from the IANA time-zone database that `jiff` bundles (so a machine
//! without /usr/share/zoneinfo, or with an old one, still gets Brazil's rules: UTC−3, with summer
//! time until 2019). Also the one place the civil-date arithmetic lives, and the one place that
//! reads the time: [`Clock`], which the application hands to everything that needs "now".

use std::{
    sync::{Arc, Mutex, OnceLock},
    time::Duration,
};

use jiff::{Timestamp, civil, tz::TimeZone};
use tokio::sync::Notify;

/// A day's length, for durations (the 7-day guarantee, "the last 30 days"); never a day boundary.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The time zone of the product's days.
pub const ZONE: &str = "America/Sao_Paulo";

fn zone() -> &'static TimeZone {
    static ZONE_RULES: OnceLock<TimeZone> = OnceLock::new();
    ZONE_RULES
        .get_or_init(|| TimeZone::get(ZONE).expect("the bundled time-zone database has America/Sao_Paulo"))
}

fn timestamp(ms: i64) -> Timestamp {
    Timestamp::from_millisecond(ms).unwrap_or(if ms < 0 { Timestamp::MIN } else { Timestamp::MAX })
}

/// An instant as RFC 3339 in UTC (`2027-01-05T12:00:00Z`), as `SOCIO_DEV_CLOCK` and
/// `socio reminders run --now` read it.
pub fn rfc3339(ms: i64) -> String {
    timestamp(ms).to_string()
}

/// São Paulo's offset from UTC at `ms`, in milliseconds (−3 h today).
pub fn offset_ms(ms: i64) -> i64 {
    i64::from(zone().to_offset(timestamp(ms)).seconds()) * 1000
}

/// São Paulo's offset when it is the same all the way from `from` to `to` (so a day is
/// `(t + offset) / DAY_MS` for every time between): true for any window since Brazil ended summer
/// time in 2019. None when a change of offset falls inside.
pub fn steady_offset_ms(from: i64, to: i64) -> Option<i64> {
    let offset = offset_ms(from);
    let changes =
        zone().following(timestamp(from)).next().is_some_and(|t| t.timestamp().as_millisecond() <= to);
    (!changes && offset_ms(to) == offset).then_some(offset)
}

/// "Now", as the product reads it. One clock per application, handed down (inside [`crate::db::Db`]
/// and the services holding it) to everything that reads the time; nothing else reads the machine's
/// clock. [`Clock::system`] is the machine's time. [`Clock::adjustable`] is the machine's time moved
/// by an amount a test sets ([`Clock::advance`], [`Clock::set`]): it keeps running, so timers,
/// leases and batch windows still fall due, while a test jumps to another day without waiting or
/// rewriting rows; whoever waits on it ([`Clock::sleep_until`]) wakes when it is moved past the
/// instant waited for. A test that races a window against its own steps stops it
/// ([`Clock::pause`]): from then on it moves only when the test moves it, however slow the machine.
/// Cloning shares the clock.
///
/// `std::time::Instant` is left to measuring how long something took (the metrics' durations):
/// no decision reads it.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    shift: Option<Arc<Shift>>,
}

/// How far a test moved an adjustable clock, and the waiters to wake when it moves.
#[derive(Debug, Default)]
struct Shift {
    reading: Mutex<Reading>,
    moved: Notify,
}

/// What an adjustable clock reads: the machine's time plus an offset while it runs, one instant
/// while it is paused.
#[derive(Clone, Copy, Debug)]
enum Reading {
    Running { offset_ms: i64 },
    Paused { at_ms: i64 },
}

impl Default for Reading {
    fn default() -> Self {
        Self::Running { offset_ms: 0 }
    }
}

impl Shift {
    fn reading(&self) -> std::sync::MutexGuard<'_, Reading> {
        self.reading.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

fn machine_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

impl Clock {
    /// The machine's time.
    pub fn system() -> Self {
        Self::default()
    }

    /// The machine's time until a test moves it.
    pub fn adjustable() -> Self {
        Self { shift: Some(Arc::default()) }
    }

    /// Milliseconds since the Unix epoch: the storage format of every time.
    pub fn now_ms(&self) -> i64 {
        match self.shift.as_ref().map(|shift| *shift.reading()) {
            None => machine_ms(),
            Some(Reading::Running { offset_ms }) => machine_ms().saturating_add(offset_ms),
            Some(Reading::Paused { at_ms }) => at_ms,
        }
    }

    /// Waits until the clock reads `at_ms` or later: the time passing, or a test moving an
    /// adjustable clock there (every waiter wakes when it moves and looks again).
    pub async fn sleep_until(&self, at_ms: i64) {
        loop {
            // Asked before reading the time, so a move between the two still wakes this wait.
            let moved = self.shift.as_ref().map(|shift| shift.moved.notified());
            let left = at_ms.saturating_sub(self.now_ms());
            if left <= 0 {
                return;
            }
            let passing = tokio::time::sleep(Duration::from_millis(left.unsigned_abs()));
            match moved {
                Some(moved) => {
                    tokio::select! {
                        () = passing => {}
                        () = moved => {}
                    }
                }
                None => passing.await,
            }
        }
    }

    /// The day it is in São Paulo.
    pub fn today(&self) -> CivilDate {
        CivilDate::in_sao_paulo(self.now_ms())
    }

    /// Moves an adjustable clock forward (or back, with a negative amount) by `ms`.
    ///
    /// # Panics
    /// On the system clock, which nothing may move.
    pub fn advance(&self, ms: i64) {
        let shift = self.shift.as_ref().expect("only an adjustable clock moves");
        {
            let mut reading = shift.reading();
            *reading = match *reading {
                Reading::Running { offset_ms } => {
                    Reading::Running { offset_ms: offset_ms.saturating_add(ms) }
                }
                Reading::Paused { at_ms } => Reading::Paused { at_ms: at_ms.saturating_add(ms) },
            };
        }
        shift.moved.notify_waiters();
    }

    /// Moves an adjustable clock to the instant `at_ms`, from where it keeps running.
    ///
    /// # Panics
    /// On the system clock, which nothing may move.
    pub fn set(&self, at_ms: i64) {
        let shift = self.shift.as_ref().expect("only an adjustable clock moves");
        {
            let mut reading = shift.reading();
            *reading = match *reading {
                Reading::Running { .. } => Reading::Running { offset_ms: at_ms.saturating_sub(machine_ms()) },
                Reading::Paused { .. } => Reading::Paused { at_ms },
            };
        }
        shift.moved.notify_waiters();
    }

    /// Stops an adjustable clock where it reads now: from then on it moves only by
    /// [`Clock::advance`] and [`Clock::set`], so a test's steps take no time by it however slow
    /// the machine is.
    ///
    /// # Panics
    /// On the system clock, which nothing may stop.
    pub fn pause(&self) {
        let shift = self.shift.as_ref().expect("only an adjustable clock moves");
        let mut reading = shift.reading();
        if let Reading::Running { offset_ms } = *reading {
            *reading = Reading::Paused { at_ms: machine_ms().saturating_add(offset_ms) };
        }
    }
}

/// A month's name (1 to 12) in the language: "março" / "March"; None for another number.
pub fn month_name(month: i64, lang: crate::locale::Language) -> Option<String> {
    (1..=12).contains(&month).then(|| say!(lang, "clock-month-name", month))
}

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

    /// The UTC date of a Unix time in milliseconds (a date the browser sent as UTC midnight).
    pub fn utc(ms: i64) -> Self {
        Self::from_days(ms.div_euclid(DAY_MS))
    }

    /// The day it is in São Paulo at a Unix time in milliseconds.
    pub fn in_sao_paulo(ms: i64) -> Self {
        Self::utc(ms.saturating_add(offset_ms(ms)))
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    pub fn days(self) -> i64 {
        let year = self.year - i64::from(self.month <= 2);
        let era = year.div_euclid(400);
        let yoe = year - era * 400;
        let mp = (self.month + 9) % 12;
        let doy = (153 * mp + 2) / 5 + self.day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    pub fn plus_days(self, days: i64) -> Self {
        Self::from_days(self.days() + days)
    }

    /// When this day starts in São Paulo, as Unix milliseconds.
    pub fn starts_at(self) -> i64 {
        let (Ok(year), Ok(month), Ok(day)) =
            (i16::try_from(self.year), i8::try_from(self.month), i8::try_from(self.day))
        else {
            return if self.year < 1970 { i64::MIN / 2 } else { i64::MAX / 2 };
        };
        civil::Date::new(year, month, day)
            .and_then(|date| date.to_zoned(zone().clone()))
            .map(|zoned| zoned.timestamp().as_millisecond())
            .unwrap_or_else(|_| (self.days() * DAY_MS).saturating_sub(offset_ms(self.days() * DAY_MS)))
    }

    /// The last millisecond of this day in São Paulo.
    pub fn ends_at(self) -> i64 {
        self.plus_days(1).starts_at() - 1
    }

    /// A day written YYYY-MM-DD (a real day of the calendar); None for anything else.
    pub fn parse_iso(text: &str) -> Option<Self> {
        let date: civil::Date = text.parse().ok()?;
        Some(Self {
            year: i64::from(date.year()),
            month: i64::from(date.month()),
            day: i64::from(date.day()),
        })
    }

    /// YYYY-MM-DD.
    pub fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// DD/MM/YYYY, as Brazilians write dates.
    pub fn brazilian(self) -> String {
        format!("{:02}/{:02}/{}", self.day, self.month, self.year)
    }

    /// The date as people of `lang` write it: DD/MM/YYYY in pt-BR, YYYY-MM-DD in English.
    pub fn written_in(self, lang: crate::locale::Language) -> String {
        match lang {
            crate::locale::Language::PtBr => self.brazilian(),
            crate::locale::Language::En => self.iso(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adjustable_clock_jumps_where_a_test_sets_it_and_keeps_running() {
        let clock = Clock::adjustable();
        let shared = clock.clone();
        let at = CivilDate { year: 2026, month: 3, day: 10 }.starts_at() + 9 * 3_600_000;
        clock.set(at);
        let now = shared.now_ms();
        assert!((at..at + 1_000).contains(&now), "{now} is not just after {at}");
        assert_eq!(shared.today().iso(), "2026-03-10");
        clock.advance(DAY_MS);
        assert_eq!(shared.today().iso(), "2026-03-11");
        let system = Clock::system().now_ms();
        assert!((Clock::adjustable().now_ms() - system).abs() < 1_000, "an unmoved clock is the machine's");
    }

    #[tokio::test]
    async fn a_wait_on_an_adjustable_clock_ends_when_a_test_moves_it_past_the_instant() {
        let clock = Clock::adjustable();
        let an_hour_on = clock.now_ms() + 3_600_000;
        let waiting = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until(an_hour_on).await }
        });
        tokio::task::yield_now().await;
        clock.advance(1_800_000);
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "half an hour on, it still waits");
        clock.advance(1_800_000);
        tokio::time::timeout(Duration::from_secs(5), waiting).await.expect("woken by the move").unwrap();
        // An instant already past does not wait at all, on either clock.
        Clock::system().sleep_until(0).await;
        clock.sleep_until(an_hour_on).await;
    }

    #[tokio::test]
    async fn a_paused_clock_reads_the_same_instant_until_a_test_moves_it() {
        let clock = Clock::adjustable();
        let at = CivilDate { year: 2026, month: 12, day: 1 }.starts_at();
        clock.set(at);
        clock.pause();
        let paused_at = clock.now_ms();
        assert!((at..at + 1_000).contains(&paused_at), "{paused_at} is not just after {at}");
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(clock.now_ms(), paused_at, "the machine's time passing does not move it");
        clock.advance(250);
        assert_eq!(clock.now_ms(), paused_at + 250);
        clock.set(at + DAY_MS);
        assert_eq!(clock.now_ms(), at + DAY_MS, "set while paused stays where set");
        let waiting = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until(at + DAY_MS + 100).await }
        });
        // Longer than the wait's own timer: it wakes, reads the same instant, and waits again.
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert!(!waiting.is_finished(), "real time passing does not end a wait on a paused clock");
        clock.advance(100);
        tokio::time::timeout(Duration::from_secs(5), waiting).await.expect("woken by the move").unwrap();
    }

    #[test]
    #[should_panic(expected = "only an adjustable clock moves")]
    fn the_system_clock_cannot_be_moved() {
        Clock::system().advance(DAY_MS);
    }

    #[test]
    fn days_since_the_epoch_read_as_calendar_dates() {
        assert_eq!(CivilDate::from_days(0).iso(), "1970-01-01");
        assert_eq!(CivilDate::from_days(19_782).iso(), "2024-02-29");
        assert_eq!(CivilDate::from_days(20_778).brazilian(), "21/11/2026");
        assert_eq!(CivilDate::utc(-1).iso(), "1969-12-31");
        for days in [-800_000, -1, 0, 19_782, 20_778, 2_932_896] {
            assert_eq!(CivilDate::from_days(days).days(), days);
        }
    }

    /// 2026-11-22 02:30 UTC.
    const HALF_PAST_ELEVEN_IN_SAO_PAULO: i64 = 1_795_314_600_000;

    #[test]
    fn half_past_eleven_at_night_in_sao_paulo_is_still_that_day_there() {
        assert_eq!(
            CivilDate::utc(HALF_PAST_ELEVEN_IN_SAO_PAULO).iso(),
            "2026-11-22",
            "already the 22nd in UTC"
        );
        let day = CivilDate::in_sao_paulo(HALF_PAST_ELEVEN_IN_SAO_PAULO);
        assert_eq!(day.iso(), "2026-11-21");
        assert_eq!(day.starts_at(), 1_795_230_000_000, "03:00 UTC");
        assert_eq!(day.ends_at(), 1_795_316_399_999);
        assert_eq!(offset_ms(HALF_PAST_ELEVEN_IN_SAO_PAULO), -3 * 3_600_000);
    }

    #[test]
    fn summer_time_before_2019_moved_the_day_boundaries_and_is_seen_as_unsteady() {
        // 2018-12-01 was in Brazilian summer time (UTC−2); 2018-11-04 is when it began.
        let summer = CivilDate { year: 2018, month: 12, day: 1 };
        assert_eq!(summer.starts_at(), 1_543_629_600_000, "02:00 UTC");
        let before = CivilDate { year: 2018, month: 10, day: 20 }.starts_at();
        assert_eq!(steady_offset_ms(before, summer.starts_at()), None);
        let now = HALF_PAST_ELEVEN_IN_SAO_PAULO;
        assert_eq!(steady_offset_ms(now - 30 * DAY_MS, now), Some(-3 * 3_600_000));
    }

    #[test]
    fn any_date_a_caller_sends_has_a_start_and_never_panics() {
        // Within the time-zone database's years a day starts before it ends; beyond them (a date a
        // caller made up) there is still an answer rather than a panic.
        for ms in [-62_000_000_000_000, -1, 0, 253_402_300_799_999] {
            let day = CivilDate::utc(ms);
            assert!(day.starts_at() < day.ends_at(), "{}", day.iso());
        }
        for ms in [i64::MIN, 400_000_000_000_000, i64::MAX] {
            let day = CivilDate::in_sao_paulo(ms);
            let _ = (day.starts_at(), day.ends_at());
        }
    }
}
