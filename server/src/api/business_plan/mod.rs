//! `BusinessPlanService`: the caller's own plan (there is no way to name another user's): sections,
//! progress, the real-time sync calls with their change feed, the complete document (Markdown and
//! PDF) and the live `WatchBusinessPlan` stream.

mod protos;

use std::sync::Arc;

use futures::StreamExt;
use serde_json::Value as Json;

use super::{
    call::{Answer, Call, Method, Reply, rpc_service},
    timestamp,
};
use crate::{
    consultant::engine::Engine,
    error::{AppError, Problem, Resource},
    identity::live::LiveSessions,
    locale::Language,
    plan::{
        Plans,
        events::MAX_WATCHERS,
        money::{pricing, reform_choice},
        price_request,
        sections::{self, Step},
        store::{Patch, Source, StepUpdate},
    },
    proto::{
        json::{self, struct_to_json},
        socio::v1::{self as pb, business_plan_service_server::BusinessPlanService},
    },
};

use super::protos::plan::{document_proto, plan_proto, status_proto, step_states};
use protos::{change_proto, source_from_proto};

/// Updates in one batch at most (the contract's limit).
const MAX_BATCH: usize = 20;

#[derive(Clone)]
pub struct BusinessPlanApi {
    plans: Plans,
    renderer: Arc<crate::rendering::Renderer>,
    engine: Engine,
    sessions: LiveSessions,
}

impl BusinessPlanApi {
    pub fn new(
        plans: Plans,
        renderer: Arc<crate::rendering::Renderer>,
        engine: Engine,
        sessions: LiveSessions,
    ) -> Self {
        Self { plans, renderer, engine, sessions }
    }

    /// The six `update_*` calls: one section's data and completed flag, written by its owner.
    async fn update<M: SectionUpdate>(&self, call: Call<M>) -> Answer<M> {
        let user_id = call.user()?.id.clone();
        let (data, completed) = M::parts(call.into_body());
        let update = StepUpdate {
            step: M::STEP,
            patch: data.map(Patch::Replace),
            completed,
            field: M::STEP.data_field().into(),
        };
        let (plan, _) = self.plans.update(&user_id, Some(&user_id), Source::Builder, &[update]).await?;
        Ok(M::reply(plan_proto(&plan)).into())
    }
}

/// A response that carries the caller's whole plan.
trait CarriesPlan {
    fn carrying(plan: pb::BusinessPlan) -> Self;
}

impl CarriesPlan for pb::CreateBusinessPlanResponse {
    fn carrying(plan: pb::BusinessPlan) -> Self {
        Self { business_plan: Some(plan) }
    }
}

impl CarriesPlan for pb::GetBusinessPlanResponse {
    fn carrying(plan: pb::BusinessPlan) -> Self {
        Self { business_plan: Some(plan) }
    }
}

/// A section's update method, so that the six calls share one path.
trait SectionUpdate: Method {
    const STEP: Step;
    /// The section's data as JSON (when given) and the completed flag (when given).
    fn parts(request: Self::Request) -> (Option<Json>, Option<bool>);
    fn reply(plan: pb::BusinessPlan) -> Self::Response;
}

macro_rules! section_update {
    ($method:ident, $reply:ident, $field:ident, $step:expr) => {
        impl SectionUpdate for $method {
            const STEP: Step = $step;
            fn parts(request: Self::Request) -> (Option<Json>, Option<bool>) {
                (request.$field.as_ref().map(json::to_json), request.completed)
            }
            fn reply(plan: pb::BusinessPlan) -> Self::Response {
                pb::$reply { business_plan: Some(plan) }
            }
        }
    };
}

section_update!(UpdateIdea, UpdateIdeaResponse, idea_data, Step::Idea);
section_update!(UpdateMarket, UpdateMarketResponse, market_data, Step::Market);
section_update!(UpdateFinance, UpdateFinanceResponse, finance_data, Step::Finance);
section_update!(UpdateMarketing, UpdateMarketingResponse, marketing_data, Step::Marketing);
section_update!(UpdateHr, UpdateHrResponse, hr_data, Step::Hr);
section_update!(UpdateLegal, UpdateLegalResponse, legal_data, Step::Legal);

fn cursor(field: &str, value: &str) -> Result<i64, AppError> {
    if value.trim().is_empty() {
        return Ok(0);
    }
    value.trim().parse::<i64>().ok().filter(|c| *c >= 0).ok_or_else(|| {
        AppError::invalid(field, Problem::Format(said!("api-business-plan-format-invalid-cursor")))
    })
}

/// A sync update (step, data, completed, source) as a step update named `field`.
fn sync_update(update: &pb::SyncUpdateRequest, field: &str) -> Result<(StepUpdate, Source), AppError> {
    let step = sections::parse_step(&format!("{field}step"), update.step)?;
    let patch = update.data.as_ref().map(|d| Patch::Merge(struct_to_json(d)));
    Ok((
        StepUpdate { step, patch, completed: update.completed, field: format!("{field}data") },
        source_from_proto(update.source),
    ))
}

impl BusinessPlanApi {
    /// `CreateBusinessPlan` and `GetBusinessPlan`: the caller's plan, made on first use.
    async fn own_plan<M: Method<Response: CarriesPlan>>(&self, call: Call<M>) -> Answer<M> {
        let plan = self.plans.get_or_create(&call.user()?.id).await?;
        Ok(M::Response::carrying(plan_proto(&plan)).into())
    }

    async fn reform_choice(&self, call: Call<ReformChoice>) -> Answer<ReformChoice> {
        let caller = call.caller()?;
        let request = reform_choice::Request::parse(call.body())?;
        // Reading never creates a plan.
        let plan =
            self.plans.find(&caller.user.id).await?.ok_or(AppError::NotFound(Resource::BusinessPlan))?;
        let today = crate::clock::CivilDate::in_sao_paulo(plan.read_at);
        let window = crate::plan::tracking::calendar::next_choice_window(today, crate::facts::calendar());
        let c = reform_choice::compare(&plan, &request, today, window, crate::locale::current())?;
        Ok(Reply::from(pb::ReformChoiceResponse {
            inside_das: c.inside,
            outside_das: c.outside,
            difference: (c.difference * 100.0).round() / 100.0,
            b2b_share_used: (c.b2b_share * 10_000.0).round() / 100.0,
            explanation: c.explanation,
            next_window: c.window.by.iso(),
            next_window_decides: format!("{}-H{}", c.window.year, c.window.half),
            customers_credit_gain: c.customers_gain,
            purchase_credits: c.purchase_credits,
        }))
    }

    async fn price(&self, call: Call<Price>) -> Answer<Price> {
        let caller = call.caller()?;
        let request = price_request::Request::parse(call.body())?;
        // Reading never creates a plan: a plan-less caller gets the price without tax or fixed costs.
        let plan = self.plans.find(&caller.user.id).await?;
        let figures = plan.as_ref().and_then(pricing::PlanFigures::of);
        let p = pricing::price(&request, figures.as_ref(), crate::locale::current())?;
        let percent = |share: f64| (share * 10_000.0).round() / 100.0;
        let parts = |parts: Vec<pricing::Part>| -> Vec<pb::PricePart> {
            parts
                .into_iter()
                .map(|part| pb::PricePart {
                    code: part.code.into(),
                    name: part.name,
                    percent: percent(part.share),
                    amount: part.amount,
                })
                .collect()
        };
        Ok(Reply::from(pb::PriceResponse {
            price: p.price,
            divisor: (p.divisor * 10_000.0).round() / 10_000.0,
            tax_percent: percent(p.tax_share),
            fixed_cost_percent: percent(p.fixed_cost_share),
            parts: parts(p.parts),
            taxes_on_top: parts(p.taxes_on_top),
            invoice_total: p.invoice_total,
            warnings: p.warnings,
            explanation: p.explanation,
            unit_cost: p.unit_cost,
        }))
    }

    async fn get_business_plan_progress(
        &self,
        call: Call<GetBusinessPlanProgress>,
    ) -> Answer<GetBusinessPlanProgress> {
        let caller = call.caller()?;
        let plan = self.plans.outline(&caller.user.id).await?;
        Ok(Reply::from(pb::GetBusinessPlanProgressResponse {
            progress: plan.progress(),
            status: status_proto(plan.status()) as i32,
            steps: step_states(&plan),
        }))
    }

    async fn generate_business_plan(&self, call: Call<GenerateBusinessPlan>) -> Answer<GenerateBusinessPlan> {
        let caller = call.caller()?;
        let language = Language::parse(&call.body().language).unwrap_or(caller.user.language);
        let (plan, document) = self.engine.generate(&caller.user, language).await?;
        let reply = pb::GenerateBusinessPlanResponse {
            business_plan: Some(plan_proto(&plan)),
            document: Some(document_proto(&document, &plan)),
        };
        let notice = say!(crate::locale::current(), "api-business-plan-business-plan-generated-successfully");
        Ok(Reply::with_message(reply, notice))
    }

    async fn export_business_plan(&self, call: Call<ExportBusinessPlan>) -> Answer<ExportBusinessPlan> {
        let caller = call.caller()?;
        let format = pb::ExportFormat::try_from(call.body().format).unwrap_or(pb::ExportFormat::Unspecified);
        let document = self.engine.document_now(&caller.user).await?;
        let name = format!("plano-de-negocios-v{}", document.version);
        let reply = match format {
            pb::ExportFormat::Pdf => {
                let renderer = self.renderer.clone();
                let model = document.model.clone();
                let pdf = tokio::task::spawn_blocking(move || renderer.render(&model))
                    .await
                    .map_err(|e| AppError::Internal(e.into()))?
                    .map_err(|e| AppError::Internal(e.into()))?;
                pb::ExportBusinessPlanResponse {
                    file_name: format!("{name}.pdf"),
                    content_type: "application/pdf".into(),
                    content: pdf,
                }
            }
            pb::ExportFormat::Markdown | pb::ExportFormat::Unspecified => pb::ExportBusinessPlanResponse {
                file_name: format!("{name}.md"),
                content_type: "text/markdown; charset=utf-8".into(),
                content: document.markdown.into_bytes(),
            },
        };
        Ok(Reply::from(reply))
    }

    async fn delete_business_plan(&self, call: Call<DeleteBusinessPlan>) -> Answer<DeleteBusinessPlan> {
        let caller = call.caller()?;
        self.plans.delete(&caller.user.id).await?;
        let notice = say!(crate::locale::current(), "api-business-plan-business-plan-deleted");
        Ok(Reply::with_message(pb::DeleteBusinessPlanResponse {}, notice))
    }

    async fn sync_update(&self, call: Call<SyncUpdate>) -> Answer<SyncUpdate> {
        let caller = call.caller()?;
        let (update, source) = sync_update(call.body(), "")?;
        let (plan, changes) = self.plans.sync(&caller.user.id, source, update).await?;
        Ok(Reply::from(pb::SyncUpdateResponse {
            business_plan: Some(plan_proto(&plan)),
            change: changes.first().map(change_proto),
        }))
    }

    async fn sync_progress(&self, call: Call<SyncProgress>) -> Answer<SyncProgress> {
        let caller = call.caller()?;
        let plan = self.plans.outline(&caller.user.id).await?;
        let latest = self.plans.latest_cursor(&caller.user.id).await?;
        Ok(Reply::from(pb::SyncProgressResponse {
            progress: plan.progress(),
            status: status_proto(plan.status()) as i32,
            steps: step_states(&plan),
            cursor: latest.to_string(),
        }))
    }

    async fn auto_save(&self, call: Call<AutoSave>) -> Answer<AutoSave> {
        let caller = call.caller()?;
        let body = call.body();
        let data = body.data.as_ref().map(struct_to_json).unwrap_or(Json::Object(Default::default()));
        let saved_at = self.plans.auto_save(&caller.user.id, &body.context, &data).await?;
        Ok(Reply::from(pb::AutoSaveResponse { saved_at: Some(timestamp(saved_at)) }))
    }

    async fn list_updates(&self, call: Call<ListUpdates>) -> Answer<ListUpdates> {
        let caller = call.caller()?;
        let body = call.body();
        let since = cursor("since", &body.since)?;
        let limit = if body.limit == 0 { 50 } else { body.limit };
        if !(1..=100).contains(&limit) {
            return Err(AppError::invalid("limit", Problem::OutOfRange { min: 1, max: 100 }));
        }
        let mut changes = self.plans.changes_since(&caller.user.id, since, i64::from(limit) + 1).await?;
        let has_more = changes.len() > limit as usize;
        changes.truncate(limit as usize);
        let next = changes.last().map(|c| c.cursor).unwrap_or(since);
        Ok(Reply::from(pb::ListUpdatesResponse {
            updates: changes.iter().map(change_proto).collect(),
            cursor: next.to_string(),
            has_more,
        }))
    }

    async fn batch_updates(&self, call: Call<BatchUpdates>) -> Answer<BatchUpdates> {
        let caller = call.caller()?;
        let body = call.body();
        if body.updates.is_empty() || body.updates.len() > MAX_BATCH {
            return Err(AppError::invalid("updates", Problem::OutOfRange { min: 1, max: MAX_BATCH as i64 }));
        }
        let mut updates = Vec::with_capacity(body.updates.len());
        let mut source = Source::Dashboard;
        for (i, update) in body.updates.iter().enumerate() {
            let (update, this_source) = sync_update(update, &format!("updates[{i}]."))?;
            if i == 0 {
                source = this_source;
            }
            updates.push(update);
        }
        let (plan, changes) = self.plans.batch(&caller.user.id, source, &updates).await?;
        Ok(Reply::from(pb::BatchUpdatesResponse {
            business_plan: Some(plan_proto(&plan)),
            changes: changes.iter().map(change_proto).collect(),
        }))
    }

    async fn watch_business_plan(&self, call: Call<WatchBusinessPlan>) -> Answer<WatchBusinessPlan> {
        let caller = call.caller()?;
        let since = cursor("since", &call.body().since)?;
        // Subscribe before reading the feed, so nothing falls between the two.
        let live = self
            .plans
            .events()
            .watch(&caller.user.id)
            .ok_or(AppError::TooManyStreams { max: MAX_WATCHERS })?;
        let user_id = caller.user.id.as_str();
        let plan = self.plans.get_or_create(user_id).await?;
        let replay = if call.body().since.trim().is_empty() {
            Vec::new()
        } else {
            self.plans.changes_since(user_id, since, 500).await?
        };
        let mut last = replay.last().map(|c| c.cursor).unwrap_or(since);
        let (progress, status) = (plan.progress(), status_proto(plan.status()) as i32);
        let replayed = futures::stream::iter(replay.into_iter().map(move |c| {
            Ok(pb::WatchBusinessPlanResponse { change: Some(change_proto(&c)), progress, status })
        }));
        let live = tokio_stream::wrappers::BroadcastStream::new(live).filter_map(move |event| {
            let event = event.ok().filter(|e| e.change.cursor > last);
            if let Some(e) = &event {
                last = e.change.cursor;
            }
            futures::future::ready(event.map(|e| {
                Ok(pb::WatchBusinessPlanResponse {
                    change: Some(change_proto(&e.change)),
                    progress: e.progress,
                    status: status_proto(e.status) as i32,
                })
            }))
        });
        // The stream lives as long as the session that opened it: logout, revocation, erasure or
        // the token running out ends it with Unauthenticated (the client logs in or refreshes).
        let ended =
            self.sessions.ended(caller.user.id.clone(), caller.session_id.clone(), caller.token_expires_at);
        let unauthenticated = futures::stream::once(async { Err(AppError::Unauthenticated.into()) });
        Ok(Reply::from(replayed.chain(live).take_until(ended).chain(unauthenticated).boxed()))
    }
}

rpc_service!(BusinessPlanService for BusinessPlanApi {
    create_business_plan as own_plan,
    get_business_plan as own_plan,
    get_business_plan_progress,
    price,
    reform_choice,
    update_idea as update,
    update_market as update,
    update_finance as update,
    update_marketing as update,
    update_hr as update,
    update_legal as update,
    generate_business_plan,
    export_business_plan,
    delete_business_plan,
    sync_update,
    sync_progress,
    auto_save,
    list_updates,
    batch_updates,
} streams { watch_business_plan });
