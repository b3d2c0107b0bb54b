//! `DashboardService`: the logged-in user's dashboard — who they are, their plan's progress and
//! steps (toggled from here), their recent messages and their real activity figures.

use serde_json::Value as Json;
use tonic::{Request, Response};

use super::{
    Rpc,
    business_plan::{status_proto, step_states},
    edge,
    paging::{DEFAULT_LIMIT, Page},
    request_language, timestamp, user_proto, with_message,
};
use crate::{
    consultant::replies,
    conversation::{
        handoff::{self, Reason},
        messages::{self, Author, Message},
    },
    db::now_ms,
    error::{AppError, Precondition, Problem},
    plan::{
        Plans, sections,
        store::{Patch, Plan, Source, StepUpdate},
    },
    proto::{
        json::struct_to_json,
        socio::v1::{self as pb, dashboard_service_server::DashboardService},
    },
};

const RECENT_MESSAGES: i64 = 5;
const PREVIEW_CHARS: usize = 140;

#[derive(Clone)]
pub struct DashboardApi {
    plans: Plans,
    whatsapp_url: String,
}

impl DashboardApi {
    pub fn new(plans: Plans, business_number: &str) -> Self {
        Self { plans, whatsapp_url: format!("https://wa.me/{business_number}") }
    }

    async fn stats(&self, user_id: &str, plan: &Plan) -> Result<pb::DashboardStats, AppError> {
        let activity = messages::activity(self.plans.db(), user_id, now_ms()).await?;
        Ok(pb::DashboardStats {
            messages_this_week: activity.messages_this_week as i32,
            days_active: activity.days_active as i32,
            plan_completion: plan.progress(),
            total_messages: activity.total_messages as i32,
        })
    }
}

fn dashboard_plan(plan: &Plan) -> pb::DashboardPlan {
    pb::DashboardPlan {
        overall_progress: plan.progress(),
        status: status_proto(plan.status()) as i32,
        steps: step_states(plan),
    }
}

fn preview(message: &Message) -> pb::MessagePreview {
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

#[tonic::async_trait]
impl DashboardService for DashboardApi {
    async fn get_dashboard(
        &self,
        request: Request<pb::GetDashboardRequest>,
    ) -> Rpc<pb::GetDashboardResponse> {
        let caller = edge::caller(&request)?;
        let user_id = &caller.user.id;
        let plan = self.plans.outline(user_id).await?;
        let recent =
            messages::latest(self.plans.db(), user_id, RECENT_MESSAGES, 0).await.map_err(AppError::from)?;
        let stats = self.stats(user_id, &plan).await?;
        Ok(Response::new(pb::GetDashboardResponse {
            user: Some(user_proto(&caller.user)),
            business_plan: Some(dashboard_plan(&plan)),
            recent_messages: recent.iter().map(preview).collect(),
            stats: Some(stats),
            whatsapp_url: self.whatsapp_url.clone(),
        }))
    }

    async fn get_dashboard_business_plan(
        &self,
        request: Request<pb::GetDashboardBusinessPlanRequest>,
    ) -> Rpc<pb::GetDashboardBusinessPlanResponse> {
        let caller = edge::caller(&request)?;
        let plan = self.plans.outline(&caller.user.id).await?;
        Ok(Response::new(pb::GetDashboardBusinessPlanResponse { business_plan: Some(dashboard_plan(&plan)) }))
    }

    async fn update_dashboard_step(
        &self,
        request: Request<pb::UpdateDashboardStepRequest>,
    ) -> Rpc<pb::UpdateDashboardStepResponse> {
        let caller = edge::caller(&request)?;
        let lang = request_language(&request);
        let body = request.get_ref();
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
        Ok(with_message(
            reply,
            lang.choose(
                "Etapa do plano de negócios atualizada com sucesso",
                "Business plan step updated successfully",
            ),
        ))
    }

    async fn list_dashboard_messages(
        &self,
        request: Request<pb::ListDashboardMessagesRequest>,
    ) -> Rpc<pb::ListDashboardMessagesResponse> {
        let caller = edge::caller(&request)?;
        let page = Page::parse(request.get_ref().page, request.get_ref().limit, DEFAULT_LIMIT)?;
        let (found, total) = messages::page(self.plans.db(), &caller.user.id, page.limit, page.offset())
            .await
            .map_err(AppError::from)?;
        Ok(Response::new(pb::ListDashboardMessagesResponse {
            messages: found.iter().map(preview).collect(),
            page: page.number as i32,
            limit: page.limit as i32,
            total: total as i32,
            total_pages: page.count(total),
        }))
    }

    async fn get_dashboard_stats(
        &self,
        request: Request<pb::GetDashboardStatsRequest>,
    ) -> Rpc<pb::GetDashboardStatsResponse> {
        let caller = edge::caller(&request)?;
        let plan = self.plans.outline(&caller.user.id).await?;
        let stats = self.stats(&caller.user.id, &plan).await?;
        Ok(Response::new(pb::GetDashboardStatsResponse { stats: Some(stats) }))
    }

    async fn request_consultation_call(
        &self,
        request: Request<pb::RequestConsultationCallRequest>,
    ) -> Rpc<pb::RequestConsultationCallResponse> {
        let caller = edge::caller(&request)?;
        let lang = request_language(&request);
        if !replies::entitled(&caller.user) {
            return Err(AppError::FailedPrecondition(Precondition::ConsultantIsPro).into());
        }
        let times = request.get_ref().preferred_times.trim();
        if times.is_empty() {
            return Err(AppError::invalid("preferredTimes", Problem::Required).into());
        }
        if times.chars().count() > handoff::MAX_NOTE_CHARS {
            return Err(AppError::invalid(
                "preferredTimes",
                Problem::TooLong { max: handoff::MAX_NOTE_CHARS },
            )
            .into());
        }
        let queued = async {
            let mut tx = self.plans.db().begin().await?;
            let queued = handoff::request(&mut tx, &caller.user.id, Reason::Call, times, now_ms()).await?;
            tx.commit().await.map(|()| queued)
        }
        .await
        .map_err(AppError::from)?;
        let message = if queued {
            lang.choose(
                "Pedido enviado! Uma pessoa da nossa equipe vai falar com você pelo WhatsApp para combinar a ligação.",
                "Request sent! A person from our team will reach you on WhatsApp to arrange the call.",
            )
        } else {
            lang.choose(
                "Você já tem um pedido com a nossa equipe: em breve uma pessoa fala com você pelo WhatsApp.",
                "You already have a request with our team: a person will reach you on WhatsApp soon.",
            )
        };
        Ok(with_message(pb::RequestConsultationCallResponse { queued }, message))
    }
}
