//! The month's real numbers against the plan. A person records a month's revenue, costs and number
//! of sales (on WhatsApp through the model's `record_month_results`, on the dashboard, or through
//! `PUT /api/results/{month}`); each month is shown beside what the plan's finance step expected
//! for a month (the same maths as the plan: revenue = ticket × sales, costs = fixed + variable,
//! result = revenue − costs) with the variance, and the biggest gap is said in one sentence.
//! Results are the person's data: exported with it, erased with it.

use serde_json::Value as Json;
use sqlx::Row;

use crate::plan::{
    amounts::amount,
    money::{self, cents, finance, taxes},
    month::YearMonth,
    sections::Step,
    store::{self, Detail, Plan, Recorded, Source},
};
use crate::{
    db::Db,
    error::{AppError, Problem},
    locale::Language,
    proto::{json as proto_json, socio::v1 as pb},
};

/// Months a list shows: the last two years.
const MONTHS_LISTED: i64 = 24;

/// What a person recorded for a month.
#[derive(Clone, Debug, PartialEq)]
pub struct MonthResult {
    pub month: YearMonth,
    pub revenue: f64,
    pub costs: f64,
    pub sales_count: i64,
    pub recorded_at: i64,
}

impl MonthResult {
    pub fn result(&self) -> f64 {
        self.revenue - self.costs
    }
}

/// What the plan expects of one month.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Forecast {
    pub revenue: f64,
    pub costs: f64,
    pub result: f64,
}

/// A month against the plan: actual − expected, and that as a percent of the expected (None when
/// the plan expects zero).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variance {
    pub revenue: f64,
    pub revenue_percent: Option<f64>,
    pub result: f64,
    pub result_percent: Option<f64>,
}

/// Records (or corrects) a month's results.
pub(super) async fn record(
    db: &Db,
    user_id: &str,
    month: YearMonth,
    revenue: f64,
    costs: f64,
    sales_count: i64,
    source: Source,
) -> Result<MonthResult, AppError> {
    let revenue = amount("revenue", revenue)?;
    let costs = amount("costs", costs)?;
    if !(0..=10_000_000).contains(&sales_count) {
        return Err(AppError::invalid("salesCount", Problem::OutOfRange { min: 0, max: 10_000_000 }));
    }
    let now = db.now_ms();
    sqlx::query(
        "insert into month_results (user_id, month, revenue_cents, costs_cents, sales_count, source, recorded_at) \
         values ($1, $2, $3, $4, $5, $6, $7) on conflict (user_id, month) do update set \
         revenue_cents = excluded.revenue_cents, costs_cents = excluded.costs_cents, \
         sales_count = excluded.sales_count, source = excluded.source, recorded_at = excluded.recorded_at",
    )
    .bind(user_id)
    .bind(month.key())
    .bind((revenue * 100.0).round() as i64)
    .bind((costs * 100.0).round() as i64)
    .bind(sales_count as i32)
    .bind(source.key())
    .bind(now)
    .execute(&mut *db.writer().await?)
    .await?;
    Ok(MonthResult { month, revenue, costs, sales_count, recorded_at: now })
}

/// The person's recorded months, newest first (the last two years).
pub(in crate::plan) async fn list(db: &Db, user_id: &str) -> Result<Vec<MonthResult>, AppError> {
    let rows = sqlx::query(
        "select month, revenue_cents, costs_cents, sales_count, recorded_at from month_results \
         where user_id = $1 order by month desc limit $2",
    )
    .bind(user_id)
    .bind(MONTHS_LISTED)
    .fetch_all(db.pool())
    .await?;
    let read = |row: &sqlx::any::AnyRow| -> Result<MonthResult, String> {
        let month: String = row.try_get("month").map_err(|e| e.to_string())?;
        let (year, m) = month.split_once('-').ok_or_else(|| format!("month {month:?}"))?;
        let bad = |what: &str| format!("{what} of {month}");
        Ok(MonthResult {
            month: YearMonth {
                year: year.parse().map_err(|_| bad("year"))?,
                month: m.parse().map_err(|_| bad("month"))?,
            },
            revenue: row.try_get::<i64, _>("revenue_cents").map_err(|_| bad("revenue"))? as f64 / 100.0,
            costs: row.try_get::<i64, _>("costs_cents").map_err(|_| bad("costs"))? as f64 / 100.0,
            sales_count: i64::from(row.try_get::<i32, _>("sales_count").map_err(|_| bad("sales"))?),
            recorded_at: row.try_get("recorded_at").map_err(|_| bad("time"))?,
        })
    };
    // A row that cannot be read is left out — the others are still shown — and said in the log.
    Ok(rows
        .iter()
        .filter_map(|row| {
            read(row)
                .map_err(|problem| {
                    tracing::warn!(user = %user_id, %problem, "a recorded month cannot be read: left out of the list");
                })
                .ok()
        })
        .collect())
}

/// What the plan's finance step expects of each month: the same figures, with the tax tables in
/// force in that month (a month's results are compared with that month's DAS, ceiling and rates).
#[derive(Clone, Debug)]
pub struct PlanForecast {
    inputs: finance::Inputs,
    legal: Json,
    finance: pb::FinanceData,
    recorded: Option<Recorded>,
    history: taxes::MeiHistory,
}

impl PlanForecast {
    /// How the plan's taxes are worked out in `month`: with the tables in force in it.
    pub fn tax_in(&self, month: YearMonth) -> taxes::Basis {
        let revenue = self.inputs.average_ticket * self.inputs.expected_sales_per_month;
        let payroll = taxes::Payroll::of(&self.finance);
        taxes::basis_after(&self.legal, revenue, &payroll, self.recorded, month.middle(), &self.history)
    }

    /// The plan's expectation of `month`.
    pub fn month(&self, month: YearMonth) -> Forecast {
        let mut inputs = self.inputs.clone();
        inputs.tax = self.tax_in(month);
        let month = finance::analyse(&inputs).month;
        Forecast {
            revenue: month.revenue,
            costs: month.taxes + month.variable_costs + month.fixed_costs,
            result: month.result,
        }
    }
}

/// What the plan's finance step expects of a month, once it has a ticket and the sales a month.
pub fn forecast(plan: &Plan) -> Option<PlanForecast> {
    let data: pb::FinanceData = proto_json::from_json(plan.section(Step::Finance).data.clone()).ok()?;
    let inputs = finance::plan_inputs(plan, &data)?;
    Some(PlanForecast {
        inputs,
        legal: plan.section(Step::Legal).data.clone(),
        finance: data,
        recorded: plan.recorded,
        history: taxes::MeiHistory::of(plan),
    })
}

/// What the person's plan expects of a month, when they have a plan with the figures (reading it
/// never creates a plan).
pub(super) async fn forecast_of(db: &Db, user_id: &str) -> Result<Option<PlanForecast>, AppError> {
    let mut conn = db.pool().acquire().await?;
    let plan = store::find(&mut conn, user_id, Detail::Sections, db.now_ms()).await?;
    Ok(plan.as_ref().and_then(forecast))
}

/// A month against the plan.
pub fn variance(actual: &MonthResult, forecast: &Forecast) -> Variance {
    let percent = |actual: f64, expected: f64| {
        (expected.abs() > f64::EPSILON)
            .then(|| ((actual - expected) / expected.abs() * 1000.0).round() / 10.0)
    };
    Variance {
        revenue: actual.revenue - forecast.revenue,
        revenue_percent: percent(actual.revenue, forecast.revenue),
        result: actual.result() - forecast.result,
        result_percent: percent(actual.result(), forecast.result),
    }
}

/// One sentence on the biggest gap between the recorded months and the plan (by result), in the
/// person's language; None without months or a plan to compare with.
pub fn biggest_gap(
    results: &[MonthResult],
    forecast: Option<&PlanForecast>,
    lang: Language,
) -> Option<String> {
    let forecast = forecast?;
    gap_against(results, |month| forecast.month(month), lang)
}

/// [`biggest_gap`] against each month's expectation.
fn gap_against(
    results: &[MonthResult],
    expected: impl Fn(YearMonth) -> Forecast,
    lang: Language,
) -> Option<String> {
    let worst = results.iter().max_by(|a, b| {
        let gap = |r: &MonthResult| (r.result() - expected(r.month).result).abs();
        gap(a).total_cmp(&gap(b))
    })?;
    let forecast = expected(worst.month);
    let gap = worst.result() - forecast.result;
    let brl = |v: f64| money::format_brl(v, lang);
    let month = worst.month.name(lang);
    Some(if gap >= 0.0 {
        say!(
            lang,
            "tracking-results-the-biggest-gap-was-in",
            month,
            worst = brl(worst.result()),
            result = brl(forecast.result),
            gap = brl(gap)
        )
    } else {
        let cause = if worst.revenue < forecast.revenue {
            say!(
                lang,
                "tracking-results-revenue-was-below-the-plan",
                brl = brl(forecast.revenue - worst.revenue)
            )
        } else {
            say!(lang, "tracking-results-costs-were-above-the-plan", brl = brl(worst.costs - forecast.costs))
        };
        say!(
            lang,
            "tracking-results-the-biggest-gap-was-in-2",
            month,
            worst = brl(worst.result()),
            result = brl(forecast.result),
            cause
        )
    })
}

/// The months with the plan beside them, as JSON for the model's tools and the export.
pub fn as_json(results: &[MonthResult], forecast: Option<&PlanForecast>) -> Json {
    let months: Vec<Json> = results
        .iter()
        .map(|r| {
            let mut month = serde_json::json!({
                "month": r.month.key(), "revenue": r.revenue, "costs": r.costs,
                "salesCount": r.sales_count, "result": cents(r.result()),
            });
            if let Some(f) = forecast.map(|f| f.month(r.month)) {
                let v = variance(r, &f);
                month["plan"] = serde_json::json!({
                    "revenue": cents(f.revenue), "costs": cents(f.costs), "result": cents(f.result),
                });
                month["variance"] = serde_json::json!({
                    "revenue": cents(v.revenue), "revenuePercent": v.revenue_percent,
                    "result": cents(v.result), "resultPercent": v.result_percent,
                });
            }
            month
        })
        .collect();
    Json::Array(months)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the log said, kept for a test to read.
    #[derive(Clone, Default)]
    struct Logged(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Logged {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_month_that_cannot_be_read_is_left_out_and_said_while_the_others_are_listed() {
        use crate::identity::{
            contact::Contact,
            phone::PhoneNumber,
            users::{Spelling, Users},
        };
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}/results.db", dir.path().display())).await.unwrap();
        db.migrate().await.unwrap();
        let mut tx = db.begin().await.unwrap();
        let ana = Users::new(db.clone())
            .register_in(
                &mut tx,
                &Contact::phone(PhoneNumber::parse("+5511987654321").unwrap()),
                Spelling::Delivered,
                "Ana",
                crate::locale::Language::PtBr,
            )
            .await
            .unwrap()
            .user;
        // October as recorded; and a row the schema takes but no month names (the test's point: a
        // row written by hand or by an older version).
        for month in ["2026-10", "2026-xx"] {
            sqlx::query(
                "insert into month_results (user_id, month, revenue_cents, costs_cents, sales_count, source, recorded_at) \
                 values ($1, $2, 1200000, 800000, 90, 'api', 0)",
            )
            .bind(&ana.id)
            .bind(month)
            .execute(&mut *tx)
            .await
            .unwrap();
        }
        tx.commit().await.unwrap();

        let logged = Logged::default();
        let writer = logged.clone();
        let subscriber =
            tracing_subscriber::fmt().with_writer(move || writer.clone()).with_ansi(false).finish();
        let listed = {
            let _said_here = tracing::subscriber::set_default(subscriber);
            list(&db, &ana.id).await.unwrap()
        };
        assert_eq!(listed.len(), 1, "October is still listed");
        assert_eq!(listed[0].month, YearMonth { year: 2026, month: 10 });
        let said = String::from_utf8(logged.0.lock().unwrap().clone()).unwrap();
        assert!(said.contains("a recorded month cannot be read"), "{said}");
        assert!(said.contains("2026-xx") && said.contains(&ana.id), "which month, whose: {said}");
    }

    // 2026-11-25 12:00 in São Paulo.
    const NOW: i64 = 1_795_618_800_000;

    #[test]
    fn each_month_is_compared_with_the_tax_tables_in_force_that_month() {
        use crate::plan::store::Section;
        let data = |step| match step {
            Step::Legal => serde_json::json!({"businessType": "mei", "activity": "commerce"}),
            Step::Finance => serde_json::json!({"averageTicket": 40, "expectedSalesPerMonth": 150,
                "monthlyFixedCosts": 1200, "variableCostPerSale": 18}),
            _ => serde_json::json!({}),
        };
        let plan = Plan {
            id: "p".into(),
            user_id: "u".into(),
            sections: Step::ALL
                .iter()
                .map(|&step| Section { step, data: data(step), completed: false, updated_at: 0 })
                .collect(),
            document: None,
            recorded: None,
            created_at: 0,
            updated_at: 0,
            read_at: 0,
            last_year: None,
        };
        let forecast = forecast(&plan).unwrap();
        let (december, january) = (YearMonth { year: 2026, month: 12 }, YearMonth { year: 2027, month: 1 });
        // December 2026: 2026's DAS (R$ 82,05, commerce) in force; costs 1.200 + 150 × 18 + 82,05.
        assert!(matches!(forecast.tax_in(december), taxes::Basis::Mei { expired: None, .. }));
        assert!((forecast.month(december).costs - 3_982.05).abs() < 1e-9);
        // January 2027: the 2027 estimate (5 % of the budget's R$ 1.741 + R$ 1 = R$ 88,05), said to
        // be one; the DAS of a competence is the one in force in that competence.
        let estimate = forecast.tax_in(january);
        assert!(
            matches!(&estimate, taxes::Basis::Mei { das, expired: None, estimate: Some(_), .. } if *das == 88.05),
            "{estimate:?}"
        );
        assert!((forecast.month(january).costs - 3_988.05).abs() < 1e-9);
    }

    #[test]
    fn a_month_is_yyyy_mm_and_never_in_the_future() {
        assert_eq!(YearMonth::parse("month", "2026-10", NOW).unwrap(), YearMonth { year: 2026, month: 10 });
        assert_eq!(YearMonth::parse("month", "2026-11", NOW).unwrap().key(), "2026-11");
        for bad in ["2026-12", "2027-01", "2026-13", "2026-1", "26-10", "outubro", "", "2026-00", "2026-1a"] {
            assert!(YearMonth::parse("month", bad, NOW).is_err(), "{bad}");
        }
        assert_eq!(YearMonth { year: 2026, month: 1 }.previous().key(), "2025-12");
    }

    #[test]
    fn a_month_is_compared_with_the_plan_with_its_variance() {
        let forecast = Forecast { revenue: 20_000.0, costs: 16_000.0, result: 4_000.0 };
        let october = MonthResult {
            month: YearMonth { year: 2026, month: 10 },
            revenue: 21_000.0,
            costs: 15_000.0,
            sales_count: 700,
            recorded_at: 0,
        };
        let v = variance(&october, &forecast);
        assert_eq!(
            (v.revenue, v.revenue_percent, v.result, v.result_percent),
            (1_000.0, Some(5.0), 2_000.0, Some(50.0))
        );
        let september = MonthResult {
            month: YearMonth { year: 2026, month: 9 },
            revenue: 15_000.0,
            costs: 16_000.0,
            ..october.clone()
        };
        let sentence = gap_against(&[october, september], |_| forecast, Language::PtBr).unwrap();
        assert!(sentence.contains("setembro de 2026") && sentence.contains("receita ficou"), "{sentence}");
        assert!(amount("revenue", -1.0).is_err() && amount("revenue", f64::NAN).is_err());
        assert_eq!(amount("revenue", 19.999).unwrap(), 20.0);
    }
}
