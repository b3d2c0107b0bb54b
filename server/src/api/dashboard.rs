//! `DashboardService`: the logged-in user's dashboard — who they are, their plan's progress and
//! steps (toggled from here), their recent messages and their real activity figures.

use serde_json::Value as Json;

use super::{
    call::{Answer, Call, Reply, rpc_service},
    paging::{DEFAULT_LIMIT, Page},
    protos::plan::{status_proto, step_states},
    timestamp, user_proto,
};
use crate::{
    consultant::replies,
    conversation::{
        desk::Desk,
        handoff,
        messages::{Activity, Author},
        overview::{Overview, Overviews, Recent},
    },
    error::{AppError, Precondition, Problem},
    plan::{
        Plans, sections,
        store::{Patch, Plan, Source, StepUpdate},
        tracking::results,
    },
    proto::{
        json::struct_to_json,
        socio::v1::{self as pb, dashboard_service_server::DashboardService},
    },
};

const RECENT_MESSAGES: i64 = 5;
const PREVIEW_CHARS: usize = 140;
/// The recorded months the dashboard charts against the plan.
const MONTHS_SHOWN: i64 = 12;

#[derive(Clone)]
pub struct DashboardApi {
    plans: Plans,
    overviews: Overviews,
    desk: Desk,
    whatsapp_url: String,
}

impl DashboardApi {
    pub fn new(plans: Plans, desk: Desk, business_number: &str) -> Self {
        Self {
            overviews: Overviews::new(plans.clone()),
            plans,
            desk,
            whatsapp_url: format!("https://wa.me/{business_number}"),
        }
    }
}

fn stats(activity: &Activity, plan: &Plan) -> pb::DashboardStats {
    pb::DashboardStats {
        messages_this_week: activity.messages_this_week as i32,
        days_active: activity.days_active as i32,
        plan_completion: plan.progress(),
        total_messages: activity.total_messages as i32,
    }
}

fn dashboard_plan(plan: &Plan) -> pb::DashboardPlan {
    pb::DashboardPlan {
        overall_progress: plan.progress(),
        status: status_proto(plan.status()) as i32,
        steps: step_states(plan),
        analyses: Some(analyses(plan)),
    }
}

/// How far the Sebrae analyses inside the steps are.
fn analyses(plan: &Plan) -> pb::PlanAnalyses {
    pb::PlanAnalyses {
        swot_quadrants_filled: plan.swot_quadrants_filled() as i32,
        scenarios_ready: plan.scenarios_ready(),
    }
}

fn preview(message: &Recent) -> pb::MessagePreview {
    let mut text: String = message.content.chars().take(PREVIEW_CHARS).collect();
    if message.content.chars().count() > PREVIEW_CHARS {
        text.push('…');
    }
    if text.is_empty() {
        text = format!("[{}]", message.kind.as_str());
    }
    pb::MessagePreview {
        id: message.id.clone(),
        r#type: match message.author {
            Author::User => pb::MessageType::User,
            Author::Assistant => pb::MessageType::Ai,
        } as i32,
        timestamp: Some(timestamp(message.created_at)),
        preview: text,
    }
}

impl DashboardApi {
    async fn get_dashboard(&self, call: Call<GetDashboard>) -> Answer<GetDashboard> {
        let caller = call.caller()?;
        let overview =
            self.overviews.of(&caller.user.id, RECENT_MESSAGES, PREVIEW_CHARS as i64, MONTHS_SHOWN).await?;
        let Overview { plan, recent, activity, months } = overview;
        let forecast = results::forecast(&plan);
        Ok(Reply::from(pb::GetDashboardResponse {
            results: months
                .iter()
                .take(MONTHS_SHOWN as usize)
                .map(|m| super::protos::months::month_proto(m, forecast.as_ref()))
                .collect(),
            user: Some(user_proto(&caller.user)),
            business_plan: Some(dashboard_plan(&plan)),
            recent_messages: recent.iter().map(preview).collect(),
            stats: Some(stats(&activity, &plan)),
            whatsapp_url: self.whatsapp_url.clone(),
        }))
    }

    async fn get_dashboard_business_plan(
        &self,
        call: Call<GetDashboardBusinessPlan>,
    ) -> Answer<GetDashboardBusinessPlan> {
        let plan = self.plans.outline(&call.user()?.id).await?;
        Ok(Reply::from(pb::GetDashboardBusinessPlanResponse { business_plan: Some(dashboard_plan(&plan)) }))
    }

    async fn update_dashboard_step(&self, call: Call<UpdateDashboardStep>) -> Answer<UpdateDashboardStep> {
        let caller = call.caller()?;
        let body = call.body();
        let step = sections::parse_step("stepId", body.step_id)?;
        let data: Option<Json> =
            body.data.as_ref().map(struct_to_json).filter(|d| d.as_object().is_some_and(|o| !o.is_empty()));
        let update = StepUpdate {
            step,
            patch: data.map(Patch::Merge),
            completed: Some(body.completed),
            field: "data".into(),
        };
        let (plan, _) =
            self.plans.update(&caller.user.id, Some(&caller.user.id), Source::Dashboard, &[update]).await?;
        let reply = pb::UpdateDashboardStepResponse { business_plan: Some(dashboard_plan(&plan)) };
        let notice = say!(crate::locale::current(), "api-dashboard-business-plan-step-updated-successfully");
        Ok(Reply::with_message(reply, notice))
    }

    async fn list_dashboard_messages(
        &self,
        call: Call<ListDashboardMessages>,
    ) -> Answer<ListDashboardMessages> {
        let caller = call.caller()?;
        let page = Page::parse(call.body().page, call.body().limit, DEFAULT_LIMIT)?;
        let (found, total) = self.overviews.messages(&caller.user.id, page.limit, page.offset()).await?;
        Ok(page.reply(found.iter().map(preview), total))
    }

    async fn get_dashboard_stats(&self, call: Call<GetDashboardStats>) -> Answer<GetDashboardStats> {
        let (plan, activity) = self.overviews.stats(&call.user()?.id).await?;
        Ok(Reply::from(pb::GetDashboardStatsResponse { stats: Some(stats(&activity, &plan)) }))
    }

    async fn request_consultation_call(
        &self,
        call: Call<RequestConsultationCall>,
    ) -> Answer<RequestConsultationCall> {
        let caller = call.caller()?;
        if !replies::entitled(&caller.user) {
            return Err(AppError::FailedPrecondition(Precondition::ConsultantIsPro));
        }
        let times = call.body().preferred_times.trim();
        if times.is_empty() {
            return Err(AppError::invalid("preferredTimes", Problem::Required));
        }
        if times.chars().count() > handoff::MAX_NOTE_CHARS {
            return Err(AppError::invalid(
                "preferredTimes",
                Problem::TooLong { max: handoff::MAX_NOTE_CHARS },
            ));
        }
        let asked = self.desk.request_call(&caller.user.id, times).await?;
        let (queued, message) = match asked {
            handoff::CallRequest::Added => {
                (true, say!(crate::locale::current(), "api-dashboard-request-sent-a-person-from"))
            }
            handoff::CallRequest::Joined => {
                (true, say!(crate::locale::current(), "api-dashboard-we-added-the-times-to"))
            }
            handoff::CallRequest::Already => {
                (false, say!(crate::locale::current(), "api-dashboard-you-already-have-a-call"))
            }
        };
        Ok(Reply::with_message(pb::RequestConsultationCallResponse { queued }, message))
    }
}

rpc_service!(DashboardService for DashboardApi {
    get_dashboard,
    get_dashboard_business_plan,
    update_dashboard_step,
    list_dashboard_messages,
    get_dashboard_stats,
    request_consultation_call,
});
