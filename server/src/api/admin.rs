//! `AdminService`: users, their conversations and plans, subscription overrides, LGPD erasure,
//! the audit trail, failed sends, guarantee refunds to pay by Pix, and analytics. The edge lets only admins in (`(socio.v1.service_access) = ACCESS_ADMIN`).

use super::{
    call::{Answer, Call, Reply, rpc_service},
    enum_field,
    paging::{DEFAULT_LIMIT, Page},
    pix_refund_proto,
    protos::{chat::admin_chat_message, months::month_proto, plan::plan_proto},
    timestamp,
};
use crate::{
    administration::Administration,
    analytics, audit,
    billing::{manual_refunds::ManualRefunds, pix_key::PixKey},
    clock::CivilDate,
    config::MessageRates,
    conversation::messages,
    error::{AppError, Problem, Resource},
    identity::{
        directory::Listed,
        users::{Role, Tier},
    },
    plan::{Plans, store as plan_store},
    privacy::{self, Privacy},
    proto::socio::v1::{self as pb, admin_service_server::AdminService},
};

#[derive(Clone)]
pub struct AdminApi {
    admin: Administration,
    plans: Plans,
    privacy: Privacy,
    rates: MessageRates,
    refunds: ManualRefunds,
}

impl AdminApi {
    pub fn new(
        admin: Administration,
        plans: Plans,
        privacy: Privacy,
        rates: MessageRates,
        refunds: ManualRefunds,
    ) -> Self {
        Self { admin, plans, privacy, rates, refunds }
    }
}

fn admin_user(user: &Listed) -> pb::AdminUser {
    let completed = user.plan_completed_steps.map(|n| usize::try_from(n).unwrap_or(0));
    let status = match completed.map(|n| plan_store::Status::of(n, user.plan_has_content)) {
        None => pb::BusinessPlanStatus::None,
        Some(plan_store::Status::Draft) => pb::BusinessPlanStatus::Draft,
        Some(plan_store::Status::InProgress) => pb::BusinessPlanStatus::InProgress,
        Some(plan_store::Status::Completed) => pb::BusinessPlanStatus::Completed,
    };
    pb::AdminUser {
        id: user.id.clone(),
        name: user.name.clone(),
        phone_number: user.phone_number.clone(),
        username: user.username.clone(),
        language: user.language.clone(),
        subscription_status: if user.tier == Tier::Pro {
            pb::SubscriptionStatus::Pro
        } else {
            pb::SubscriptionStatus::Free
        } as i32,
        role: if user.role == Role::Admin { pb::Role::Admin } else { pb::Role::User } as i32,
        total_messages: user.total_messages as i32,
        business_plan_status: status as i32,
        plan_completion_percentage: completed.map_or(0, plan_store::progress),
        created_at: Some(timestamp(user.created_at)),
        last_active_at: user.last_active_at.map(timestamp),
    }
}

impl AdminApi {
    async fn list_users(&self, call: Call<ListUsers>) -> Answer<ListUsers> {
        let body = call.body();
        if body.search.chars().count() > 100 {
            return Err(AppError::invalid("search", Problem::TooLong { max: 100 }));
        }
        let tier = match pb::SubscriptionFilter::try_from(body.subscription_status)
            .unwrap_or(pb::SubscriptionFilter::Unspecified)
        {
            pb::SubscriptionFilter::Free => Some(Tier::Free),
            pb::SubscriptionFilter::Pro => Some(Tier::Pro),
            pb::SubscriptionFilter::All | pb::SubscriptionFilter::Unspecified => None,
        };
        let page = Page::parse(body.page, body.limit, DEFAULT_LIMIT)?;
        let (found, total) = self.admin.users(tier, &body.search, page.limit, page.offset()).await?;
        Ok(page.reply(found.iter().map(admin_user), total))
    }

    async fn get_user(&self, call: Call<GetUser>) -> Answer<GetUser> {
        let found = self.admin.detail(&call.body().id).await?;
        let (summary, forecast) = (found.summary, found.forecast);
        Ok(Reply::from(pb::GetUserResponse {
            results: found.months.iter().map(|m| month_proto(m, forecast.as_ref())).collect(),
            user: Some(admin_user(&found.user)),
            conversation_summary: summary.as_ref().map(|s| s.text.clone()).unwrap_or_default(),
            summary_updated_at: summary.map(|s| timestamp(s.updated_at)),
        }))
    }

    async fn get_chat_history(&self, call: Call<GetChatHistory>) -> Answer<GetChatHistory> {
        let body = call.body();
        // The browser sends each day as that date's UTC midnight; it means the day in São Paulo,
        // and an end date is the whole of that day.
        let day = |t: &prost_types::Timestamp| CivilDate::utc(t.seconds.saturating_mul(1000));
        let from = body.start_date.as_ref().map(|t| day(t).starts_at()).unwrap_or(0);
        let to = body.end_date.as_ref().map(|t| day(t).ends_at()).unwrap_or(i64::MAX);
        let page = Page::parse(body.page, body.limit, 50)?;
        let (found, total) = self.admin.history(&body.id, (from, to), page.limit, page.offset()).await?;
        Ok(page.reply(found.iter().map(admin_chat_message), total))
    }

    async fn get_admin_stats(&self, _call: Call<GetAdminStats>) -> Answer<GetAdminStats> {
        let s = self.admin.stats().await?;
        let average = if s.total_users == 0 {
            0.0
        } else {
            (s.total_messages as f64 / s.total_users as f64 * 10.0).round() / 10.0
        };
        Ok(Reply::from(pb::GetAdminStatsResponse {
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

    async fn set_user_subscription(&self, call: Call<SetUserSubscription>) -> Answer<SetUserSubscription> {
        let actor = call.caller()?;
        let body = call.body();
        let tier =
            enum_field(body.subscription_status, "subscriptionStatus", &["free", "pro"], |s| match s {
                pb::SubscriptionStatus::Pro => Some(Tier::Pro),
                pb::SubscriptionStatus::Free => Some(Tier::Free),
                pb::SubscriptionStatus::Unspecified => None,
            })?;
        let user = self.admin.override_tier(&actor.user.id, &body.id, tier).await?;
        let message = match tier {
            Tier::Pro => say!(crate::locale::current(), "api-admin-user-updated-to-pro"),
            Tier::Free => say!(crate::locale::current(), "api-admin-user-updated-to-free"),
        };
        Ok(Reply::with_message(pb::SetUserSubscriptionResponse { user: Some(admin_user(&user)) }, message))
    }

    async fn delete_user(&self, call: Call<DeleteUser>) -> Answer<DeleteUser> {
        let actor = call.caller()?;
        let id = call.body().id.clone();
        let by = privacy::Request { actor_id: &actor.user.id, action: "delete_user", detail: "LGPD erasure" };
        if !self.privacy.erase(&id, &by).await? {
            return Err(AppError::NotFound(Resource::User));
        }
        let notice = say!(crate::locale::current(), "api-admin-user-deleted-successfully");
        Ok(Reply::with_message(pb::DeleteUserResponse {}, notice))
    }

    async fn get_user_business_plan(&self, call: Call<GetUserBusinessPlan>) -> Answer<GetUserBusinessPlan> {
        self.admin.user(&call.body().id).await?;
        let plan = self.plans.find(&call.body().id).await?;
        Ok(Reply::from(pb::GetUserBusinessPlanResponse { business_plan: plan.as_ref().map(plan_proto) }))
    }

    async fn export_user_data(&self, call: Call<ExportUserData>) -> Answer<ExportUserData> {
        let actor = call.caller()?;
        let id = call.body().id.clone();
        self.admin.user(&id).await?;
        let by = privacy::Request { actor_id: &actor.user.id, action: "export_user", detail: "LGPD export" };
        let asker = privacy::Asker {
            user_id: &actor.user.id,
            session_id: &actor.session_id,
            role: actor.user.role.as_str(),
        };
        let (download_url, expires) = self.privacy.export_link(&id, &by, &asker).await?;
        Ok(Reply::from(pb::ExportUserDataResponse { download_url, expires_at: Some(timestamp(expires)) }))
    }

    async fn list_audit_events(&self, call: Call<ListAuditEvents>) -> Answer<ListAuditEvents> {
        let page = Page::parse(call.body().page, call.body().limit, DEFAULT_LIMIT)?;
        let (events, total) = self.admin.audit_events(page.limit, page.offset()).await?;
        Ok(page.reply(events.into_iter().map(audit_event_proto), total))
    }

    async fn get_analytics(&self, call: Call<GetAnalytics>) -> Answer<GetAnalytics> {
        let days = match call.body().days {
            0 => 30,
            days @ 1..=90 => days,
            _ => {
                return Err(AppError::invalid("days", Problem::OutOfRange { min: 1, max: 90 }));
            }
        };
        let report = self.admin.analytics(i64::from(days), &self.rates).await?;
        let daily = |counts: Vec<analytics::DailyCount>| {
            counts.into_iter().map(|c| pb::DailyCount { day: c.day, count: c.count as i32 }).collect()
        };
        Ok(Reply::from(pb::GetAnalyticsResponse {
            funnel: report.funnel.into_iter().map(funnel_row_proto).collect(),
            pro_conversions_elsewhere: report.pro_conversions_elsewhere as i32,
            messages_per_day: daily(report.messages_per_day),
            failed_sends_per_day: daily(report.failed_sends_per_day),
            billable_messages_per_day: report.billing.days.iter().map(billable_day_proto).collect(),
            estimated_cost_brl: cents(report.billing.cost_brl),
            estimated_cost_per_person_month_brl: cents(report.billing.cost_per_person_month_brl),
            rates: Some(pb::MessageRates {
                marketing: self.rates.marketing,
                utility: self.rates.utility,
                authentication: self.rates.authentication,
                service: self.rates.service,
            }),
            billable_messages: report.billing.messages as i32,
            reminders: Some(pb::ReminderCounts {
                checkins_sent: report.reminders.checkins_sent as i32,
                checkins_answered: report.reminders.checkins_answered as i32,
                reminders_sent: report.reminders.reminders_sent as i32,
                stopped: report.reminders.stopped as i32,
            }),
        }))
    }

    async fn list_facts(&self, _call: Call<ListFacts>) -> Answer<ListFacts> {
        let today = self.admin.today();
        let lang = crate::locale::current();
        let mut facts: Vec<pb::FactStatus> = crate::facts::all()
            .iter()
            .map(|f| pb::FactStatus {
                id: f.id.clone(),
                topic: f.topic.clone(),
                as_of: f.as_of.clone(),
                source: f.source.clone(),
                valid_from: f.valid_from.clone().unwrap_or_default(),
                valid_until: f.valid_until.clone().unwrap_or_default(),
                status: f.status(&today).into(),
                text: f.text_on(&today, lang),
            })
            .collect();
        facts.extend(crate::facts::tables(&today).into_iter().map(|t| pb::FactStatus {
            status: t.status().into(),
            id: t.id.into(),
            topic: t.topic.into(),
            as_of: t.valid_from.clone(),
            source: crate::facts::get(&t.fact).source.clone(),
            valid_from: t.valid_from,
            valid_until: t.valid_until.unwrap_or_default(),
            text: t.summary,
        }));
        let expired = facts.iter().filter(|f| f.status == "expired").count() as i32;
        Ok(Reply::from(pb::ListFactsResponse { facts, expired, today }))
    }

    async fn list_failed_messages(&self, call: Call<ListFailedMessages>) -> Answer<ListFailedMessages> {
        let page = Page::parse(call.body().page, call.body().limit, DEFAULT_LIMIT)?;
        let (sends, total) = self.admin.failed_sends(page.limit, page.offset()).await?;
        Ok(page.reply(sends.into_iter().map(failed_message_proto), total))
    }

    async fn list_refunds(&self, _call: Call<ListRefunds>) -> Answer<ListRefunds> {
        let refunds = self.refunds.list().await?;
        Ok(Reply::from(pb::ListRefundsResponse {
            refunds: refunds.iter().map(|r| pix_refund_proto(r, true)).collect(),
        }))
    }

    async fn mark_refund_paid(&self, call: Call<MarkRefundPaid>) -> Answer<MarkRefundPaid> {
        let admin = call.caller()?;
        // The key the admin was shown and paid, as the list gives it (or as a person writes it).
        let shown = call.body().pix_key.trim();
        if shown.is_empty() {
            return Err(AppError::invalid("pixKey", Problem::Required));
        }
        let paid_key = PixKey::parse(shown).map_or_else(|| shown.to_owned(), |key| key.value().to_owned());
        let refund = self.refunds.mark_paid(&call.body().id, &admin.user.id, &paid_key).await?;
        let notice = say!(crate::locale::current(), "api-admin-refund-marked-as-paid-the");
        Ok(Reply::with_message(
            pb::MarkRefundPaidResponse { refund: Some(pix_refund_proto(&refund, true)) },
            notice,
        ))
    }
}

/// Reais to the cent.
fn cents(reais: f64) -> f64 {
    (reais * 100.0).round() / 100.0
}

fn billable_day_proto(day: &analytics::costs::BillableDay) -> pb::BillableDay {
    let count = |category: &str| day.counts.get(category).copied().unwrap_or(0) as i32;
    pb::BillableDay {
        day: day.day.clone(),
        marketing: count("marketing"),
        utility: count("utility"),
        authentication: count("authentication"),
        service: count("service"),
        estimated_cost_brl: (day.cost_brl * 10_000.0).round() / 10_000.0,
    }
}

fn audit_event_proto(e: audit::AuditEvent) -> pb::AuditEvent {
    pb::AuditEvent {
        id: e.id,
        actor_id: e.actor_id.unwrap_or_default(),
        action: e.action,
        target_id: e.target_id.unwrap_or_default(),
        detail: e.detail,
        created_at: Some(timestamp(e.created_at)),
    }
}

fn funnel_row_proto(row: analytics::FunnelRow) -> pb::FunnelRow {
    pb::FunnelRow {
        variant: row.variant.as_str().to_owned(),
        landing_views: row.landing_views as i32,
        checkout_starts: row.checkout_starts as i32,
        pro_conversions: row.pro_conversions as i32,
    }
}

fn failed_message_proto(f: messages::FailedSend) -> pb::FailedMessage {
    pb::FailedMessage {
        id: f.id,
        user_id: f.user_id,
        phone_number: f.phone_number,
        content: f.content,
        error: f.error,
        failed_at: Some(timestamp(f.failed_at)),
    }
}

rpc_service!(AdminService for AdminApi {
    get_admin_stats,
    list_users,
    get_user,
    get_chat_history,
    set_user_subscription,
    delete_user,
    get_user_business_plan,
    export_user_data,
    list_audit_events,
    get_analytics,
    list_failed_messages,
    list_facts,
    list_refunds,
    mark_refund_paid,
});
