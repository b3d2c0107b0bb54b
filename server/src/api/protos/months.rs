//! A month's real numbers as the contracts show them, with what the plan expects of a month and the
//! variance. The results service, the dashboard and the admin's view of a person show the same
//! months, so their adapters take this mapper from here.

use crate::{
    api::timestamp,
    plan::tracking::results::{self, Forecast, MonthResult, PlanForecast},
    proto::socio::v1 as pb,
};

pub fn forecast_proto(f: &Forecast) -> pb::MonthForecast {
    pb::MonthForecast { revenue: f.revenue, costs: f.costs, result: f.result }
}

/// A month beside what the plan expects of that month (with that month's tax tables).
pub fn month_proto(r: &MonthResult, forecast: Option<&PlanForecast>) -> pb::MonthResult {
    let forecast = forecast.map(|f| f.month(r.month));
    let forecast = forecast.as_ref();
    pb::MonthResult {
        month: r.month.key(),
        revenue: r.revenue,
        costs: r.costs,
        sales_count: r.sales_count as i32,
        result: (r.result() * 100.0).round() / 100.0,
        plan: forecast.map(forecast_proto),
        variance: forecast.map(|f| {
            let v = results::variance(r, f);
            pb::MonthVariance {
                revenue: v.revenue,
                revenue_percent: v.revenue_percent,
                result: v.result,
                result_percent: v.result_percent,
            }
        }),
        recorded_at: Some(timestamp(r.recorded_at)),
    }
}
