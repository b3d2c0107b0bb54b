//! `ResultsService`: a month's real numbers (record, list) against the plan, and the proactive
//! messages the person agreed to (`plan::tracking::reminders`). Thin: it reads the request, calls the
//! domain, and maps to proto.

use super::{
    call::{Answer, Call, Reply, rpc_service},
    protos::months::{forecast_proto, month_proto},
    timestamp,
};
use crate::{
    plan::{
        store::Source,
        tracking::{
            Outlook, Results,
            calendar::{self, CeilingOutlook},
            ceiling,
            reminders::{Preferences, Reminders},
            results,
        },
    },
    proto::socio::v1::{self as pb, results_service_server::ResultsService},
};

#[derive(Clone)]
pub struct ResultsApi {
    results: Results,
    reminders: Reminders,
}

impl ResultsApi {
    pub fn new(results: Results, reminders: Reminders) -> Self {
        Self { results, reminders }
    }
}

fn reminders_proto(p: &Preferences) -> pb::Reminders {
    pb::Reminders {
        monthly_checkin: p.monthly_checkin,
        tax_reminders: p.tax_reminders,
        day: p.day,
        hour: p.hour,
        stopped: p.stopped_at.is_some(),
        consented_at: p.consented_at.map(timestamp),
    }
}

impl ResultsApi {
    async fn get_reminders(&self, call: Call<GetReminders>) -> Answer<GetReminders> {
        let user = call.user()?;
        let preferences = self.reminders.of(&user.id).await?;
        Ok(Reply::from(pb::GetRemindersResponse { reminders: Some(reminders_proto(&preferences)) }))
    }

    async fn update_reminders(&self, call: Call<UpdateReminders>) -> Answer<UpdateReminders> {
        let user = call.user()?;
        let body = call.body();
        let saved = self
            .reminders
            .choose(&user.id, body.monthly_checkin, body.tax_reminders, body.day, body.hour)
            .await?;
        let reply = pb::UpdateRemindersResponse { reminders: Some(reminders_proto(&saved)) };
        Ok(Reply::with_message(reply, say!(crate::locale::current(), "api-results-reminders-updated")))
    }

    async fn record_month_results(&self, call: Call<RecordMonthResults>) -> Answer<RecordMonthResults> {
        let user = call.user()?;
        let body = call.body();
        let figures = (body.revenue, body.costs, i64::from(body.sales_count));
        let (recorded, forecast) =
            self.results.record(&user.id, &body.month, figures, Source::Dashboard).await?;
        let reply =
            pb::RecordMonthResultsResponse { result: Some(month_proto(&recorded, forecast.as_ref())) };
        Ok(Reply::with_message(reply, say!(crate::locale::current(), "api-results-month-s-results-saved")))
    }

    async fn list_results(&self, call: Call<ListResults>) -> Answer<ListResults> {
        let user = call.user()?;
        let Outlook { months, forecast, ceiling, today } = self.results.outlook(&user.id).await?;
        let lang = crate::locale::current();
        let projection = |c: &ceiling::CeilingProjection| pb::CeilingProjection {
            year: c.year as i32,
            limit: c.limit,
            tolerance_limit: c.tolerance_limit,
            revenue_so_far: c.revenue_so_far,
            projected_revenue: c.projected,
            crossing_month: c.crossing.map(|m| m.key()).unwrap_or_default(),
            passed: c.passed,
            rule: ceiling::tolerance_rule(c, lang),
            ..Default::default()
        };
        Ok(Reply::from(pb::ListResultsResponse {
            ceiling: ceiling.map(|outlook| match outlook {
                CeilingOutlook::Year(c) => projection(&c),
                CeilingOutlook::YearOver(over) | CeilingOutlook::Passed(over) => pb::CeilingProjection {
                    closed: over.closed,
                    action: calendar::what_to_do(&over, today, lang),
                    report_by: over.report_by.iso(),
                    excess_tax: over.excess_tax.map_or(0.0, |t| t.amount),
                    excess_tax_due: over.excess_tax.map(|t| t.due.iso()).unwrap_or_default(),
                    ..projection(&over.projection)
                },
            }),
            results: months.iter().map(|m| month_proto(m, forecast.as_ref())).collect(),
            // What the plan expects of the current month (its tax tables).
            plan: forecast.as_ref().map(|f| {
                forecast_proto(
                    &f.month(crate::plan::month::YearMonth { year: today.year, month: today.month }),
                )
            }),
            biggest_gap: results::biggest_gap(&months, forecast.as_ref(), lang).unwrap_or_default(),
        }))
    }
}

rpc_service!(ResultsService for ResultsApi {
    record_month_results,
    list_results,
    get_reminders,
    update_reminders,
});
