//! `AdminService`: users, their conversations and plans, subscription overrides, LGPD erasure,
//! the audit trail, failed sends and analytics. The edge lets only admins in (`edge::ADMIN`).

use tonic::{Request, Response};

use super::{
    Rpc,
    business_plan::plan_proto,
    consultant::admin_chat_message,
    edge,
    export::{Exports, LINK_TTL_MS},
    paging::{DEFAULT_LIMIT, Page},
    request_language, timestamp, with_message,
};
use crate::{
    analytics, audit,
    billing::subscriptions,
    clock::CivilDate,
    conversation::{messages, summaries},
    db::{Db, now_ms},
    erasure,
    error::{AppError, Problem, Resource},
    identity::{
        directory::{self, Listed},
        users::{Role, Tier},
    },
    plan::Plans,
    proto::socio::v1::{self as pb, admin_service_server::AdminService},
};

#[derive(Clone)]
pub struct AdminApi {
    db: Db,
    plans: Plans,
    exports: Exports,
}

impl AdminApi {
    pub fn new(db: Db, plans: Plans, exports: Exports) -> Self {
        Self { db, plans, exports }
    }
}

fn admin_user(user: &Listed) -> pb::AdminUser {
    let status = match (user.plan_completed_steps, user.plan_has_content) {
        (None, _) => pb::BusinessPlanStatus::None,
        (Some(6), _) => pb::BusinessPlanStatus::Completed,
        (Some(0), false) => pb::BusinessPlanStatus::Draft,
        (Some(_), _) => pb::BusinessPlanStatus::InProgress,
    };
    pb::AdminUser {
        id: user.id.clone(),
        name: user.name.clone(),
        phone_number: user.phone_number.clone(),
        language: user.language.clone(),
        subscription_status: if user.tier == Tier::Pro {
            pb::SubscriptionStatus::Pro
        } else {
            pb::SubscriptionStatus::Free
        } as i32,
        role: if user.role == Role::Admin { pb::Role::Admin } else { pb::Role::User } as i32,
        total_messages: user.total_messages as i32,
        business_plan_status: status as i32,
        plan_completion_percentage: user
            .plan_completed_steps
            .map(|n| (n as f64 * 100.0 / 6.0).round() as i32)
            .unwrap_or(0),
        created_at: Some(timestamp(user.created_at)),
        last_active_at: user.last_active_at.map(timestamp),
    }
}

impl AdminApi {
    async fn found(&self, id: &str) -> Result<Listed, AppError> {
        directory::get(&self.db, id).await?.ok_or(AppError::NotFound(Resource::User))
    }
}

#[tonic::async_trait]
impl AdminService for AdminApi {
    async fn list_users(&self, request: Request<pb::ListUsersRequest>) -> Rpc<pb::ListUsersResponse> {
        let body = request.get_ref();
        if body.search.chars().count() > 100 {
            return Err(AppError::invalid("search", Problem::TooLong { max: 100 }).into());
        }
        let tier = match pb::SubscriptionFilter::try_from(body.subscription_status)
            .unwrap_or(pb::SubscriptionFilter::Unspecified)
        {
            pb::SubscriptionFilter::Free => Some(Tier::Free),
            pb::SubscriptionFilter::Pro => Some(Tier::Pro),
            pb::SubscriptionFilter::All | pb::SubscriptionFilter::Unspecified => None,
        };
        let page = Page::parse(body.page, body.limit, DEFAULT_LIMIT)?;
        let (found, total) = directory::list(&self.db, tier, &body.search, page.limit, page.offset())
            .await
            .map_err(AppError::from)?;
        Ok(Response::new(pb::ListUsersResponse {
            users: found.iter().map(admin_user).collect(),
            total: total as i32,
            total_pages: page.count(total),
            page: page.number as i32,
        }))
    }

    async fn get_user(&self, request: Request<pb::GetUserRequest>) -> Rpc<pb::GetUserResponse> {
        let user = self.found(&request.get_ref().id).await?;
        let mut conn = self.db.pool().acquire().await.map_err(AppError::from)?;
        let summary = summaries::get(&mut conn, &user.id).await.map_err(AppError::from)?;
        Ok(Response::new(pb::GetUserResponse {
            user: Some(admin_user(&user)),
            conversation_summary: summary.as_ref().map(|s| s.text.clone()).unwrap_or_default(),
            summary_updated_at: summary.map(|s| timestamp(s.updated_at)),
        }))
    }

    async fn get_chat_history(
        &self,
        request: Request<pb::GetChatHistoryRequest>,
    ) -> Rpc<pb::GetChatHistoryResponse> {
        let body = request.get_ref();
        self.found(&body.id).await?;
        // The browser sends each day as that date's UTC midnight; it means the day in São Paulo,
        // and an end date is the whole of that day.
        let day = |t: &prost_types::Timestamp| CivilDate::utc(t.seconds.saturating_mul(1000));
        let from = body.start_date.as_ref().map(|t| day(t).starts_at()).unwrap_or(0);
        let to = body.end_date.as_ref().map(|t| day(t).ends_at()).unwrap_or(i64::MAX);
        let page = Page::parse(body.page, body.limit, 50)?;
        let (found, total) = messages::history(&self.db, &body.id, from, to, page.limit, page.offset())
            .await
            .map_err(AppError::from)?;
        Ok(Response::new(pb::GetChatHistoryResponse {
            messages: found.iter().map(admin_chat_message).collect(),
            total: total as i32,
            total_pages: page.count(total),
            page: page.number as i32,
        }))
    }

    async fn get_admin_stats(
        &self,
        _request: Request<pb::GetAdminStatsRequest>,
    ) -> Rpc<pb::GetAdminStatsResponse> {
        let s = directory::stats(&self.db).await.map_err(AppError::from)?;
        let average = if s.total_users == 0 {
            0.0
        } else {
            (s.total_messages as f64 / s.total_users as f64 * 10.0).round() / 10.0
        };
        Ok(Response::new(pb::GetAdminStatsResponse {
            stats: Some(pb::AdminStats {
                total_users: s.total_users as i32,
                active_users: s.active_users as i32,
                pro_users: s.pro_users as i32,
                total_messages: s.total_messages as i32,
                average_messages_per_user: average,
                users_with_business_plans: s.users_with_plans as i32,
                completed_business_plans: s.completed_plans as i32,
            }),
        }))
    }

    async fn set_user_subscription(
        &self,
        request: Request<pb::SetUserSubscriptionRequest>,
    ) -> Rpc<pb::SetUserSubscriptionResponse> {
        let lang = request_language(&request);
        let actor = edge::caller(&request)?;
        let body = request.get_ref();
        let tier = match pb::SubscriptionStatus::try_from(body.subscription_status)
            .unwrap_or(pb::SubscriptionStatus::Unspecified)
        {
            pb::SubscriptionStatus::Pro => Tier::Pro,
            pb::SubscriptionStatus::Free => Tier::Free,
            pb::SubscriptionStatus::Unspecified => {
                return Err(AppError::invalid("subscriptionStatus", Problem::one_of(&["free", "pro"])).into());
            }
        };
        self.found(&body.id).await?;
        let mut tx = self.db.begin().await.map_err(AppError::from)?;
        let run = async {
            subscriptions::override_tier(&mut tx, &body.id, tier).await?;
            audit::record(
                &mut tx,
                &actor.user.id,
                &format!("set_subscription_{}", tier.as_str()),
                &body.id,
                "",
            )
            .await?;
            Ok::<(), sqlx::Error>(())
        };
        run.await.map_err(AppError::from)?;
        tx.commit().await.map_err(AppError::from)?;
        let user = self.found(&body.id).await?;
        let message = match tier {
            Tier::Pro => lang.choose("Usuário atualizado para Pro", "User updated to Pro"),
            Tier::Free => lang.choose("Usuário atualizado para Free", "User updated to Free"),
        };
        Ok(with_message(pb::SetUserSubscriptionResponse { user: Some(admin_user(&user)) }, message))
    }

    async fn delete_user(&self, request: Request<pb::DeleteUserRequest>) -> Rpc<pb::DeleteUserResponse> {
        let lang = request_language(&request);
        let actor = edge::caller(&request)?;
        let id = request.get_ref().id.clone();
        if !erasure::erase(&self.db, &id).await.map_err(AppError::from)? {
            return Err(AppError::NotFound(Resource::User).into());
        }
        let mut conn = self.db.pool().acquire().await.map_err(AppError::from)?;
        audit::record(&mut conn, &actor.user.id, "delete_user", &id, "LGPD erasure")
            .await
            .map_err(AppError::from)?;
        Ok(with_message(
            pb::DeleteUserResponse {},
            lang.choose("Usuário excluído com sucesso", "User deleted successfully"),
        ))
    }

    async fn get_user_business_plan(
        &self,
        request: Request<pb::GetUserBusinessPlanRequest>,
    ) -> Rpc<pb::GetUserBusinessPlanResponse> {
        self.found(&request.get_ref().id).await?;
        let plan = self.plans.find(&request.get_ref().id).await?;
        Ok(Response::new(pb::GetUserBusinessPlanResponse { business_plan: plan.as_ref().map(plan_proto) }))
    }

    async fn export_user_data(
        &self,
        request: Request<pb::ExportUserDataRequest>,
    ) -> Rpc<pb::ExportUserDataResponse> {
        let actor = edge::caller(&request)?;
        let id = request.get_ref().id.clone();
        self.found(&id).await?;
        let expires = now_ms() + LINK_TTL_MS;
        let mut conn = self.db.pool().acquire().await.map_err(AppError::from)?;
        audit::record(&mut conn, &actor.user.id, "export_user", &id, "LGPD export")
            .await
            .map_err(AppError::from)?;
        Ok(Response::new(pb::ExportUserDataResponse {
            download_url: self.exports.link(&id, expires),
            expires_at: Some(timestamp(expires)),
        }))
    }

    async fn list_audit_events(
        &self,
        request: Request<pb::ListAuditEventsRequest>,
    ) -> Rpc<pb::ListAuditEventsResponse> {
        let page = Page::parse(request.get_ref().page, request.get_ref().limit, DEFAULT_LIMIT)?;
        let (events, total) =
            audit::list(&self.db, page.limit, page.offset()).await.map_err(AppError::from)?;
        Ok(Response::new(pb::ListAuditEventsResponse {
            events: events
                .into_iter()
                .map(|e| pb::AuditEvent {
                    id: e.id,
                    actor_id: e.actor_id.unwrap_or_default(),
                    action: e.action,
                    target_id: e.target_id.unwrap_or_default(),
                    detail: e.detail,
                    created_at: Some(timestamp(e.created_at)),
                })
                .collect(),
            total: total as i32,
            total_pages: page.count(total),
        }))
    }

    async fn get_analytics(
        &self,
        request: Request<pb::GetAnalyticsRequest>,
    ) -> Rpc<pb::GetAnalyticsResponse> {
        let days = match request.get_ref().days {
            0 => 30,
            days @ 1..=90 => days,
            _ => {
                return Err(AppError::invalid("days", Problem::OutOfRange { min: 1, max: 90 }).into());
            }
        };
        let report = analytics::report(&self.db, i64::from(days)).await.map_err(AppError::from)?;
        let daily = |counts: Vec<analytics::DailyCount>| {
            counts.into_iter().map(|c| pb::DailyCount { day: c.day, count: c.count as i32 }).collect()
        };
        Ok(Response::new(pb::GetAnalyticsResponse {
            funnel: report
                .funnel
                .into_iter()
                .map(|row| pb::FunnelRow {
                    variant: row.variant.as_str().to_owned(),
                    landing_views: row.landing_views as i32,
                    checkout_starts: row.checkout_starts as i32,
                    pro_conversions: row.pro_conversions as i32,
                })
                .collect(),
            messages_per_day: daily(report.messages_per_day),
            failed_sends_per_day: daily(report.failed_sends_per_day),
        }))
    }

    async fn list_failed_messages(
        &self,
        request: Request<pb::ListFailedMessagesRequest>,
    ) -> Rpc<pb::ListFailedMessagesResponse> {
        let page = Page::parse(request.get_ref().page, request.get_ref().limit, DEFAULT_LIMIT)?;
        let (sends, total) =
            messages::failed_sends(&self.db, page.limit, page.offset()).await.map_err(AppError::from)?;
        Ok(Response::new(pb::ListFailedMessagesResponse {
            messages: sends
                .into_iter()
                .map(|f| pb::FailedMessage {
                    id: f.id,
                    user_id: f.user_id,
                    phone_number: f.phone_number,
                    content: f.content,
                    error: f.error,
                    failed_at: Some(timestamp(f.failed_at)),
                })
                .collect(),
            total: total as i32,
            total_pages: page.count(total),
        }))
    }
}
