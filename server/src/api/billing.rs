//! `BillingService`: the plans on offer, checkout for a registered person (by number, by the
//! opaque link the consultant sent someone without a visible number, or as the caller), and the caller's
//! subscription (status, cancel with the 7-day guarantee, upgrade). Payments go through the
//! configured provider; the `sandbox` provider's test payment page completes a checkout through
//! the same path a provider's webhook takes.

use std::time::Duration;

use super::{
    call::{Answer, Call, Reply, rpc_service, say},
    timestamp,
};
use crate::{
    analytics::Variant,
    billing::{
        cancellation,
        checkout::{self, CheckoutSession},
        plans::{self, Offer, PlanId},
        stripe::StripeClient,
        subscriptions::{self, Interval, ProviderIds, Subscription},
    },
    config::PaymentsProvider,
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::{AppError, Problem, Resource},
    identity::{
        links::LinkKeys,
        login::start_on_whatsapp,
        phone::PhoneNumber,
        users::{self, Tier, User},
    },
    proto::socio::v1::{
        self as pb, ListPlansResponse, PlanOffer, PlanType, billing_service_server::BillingService,
    },
};

/// Checkouts asked for without a token, from one address and for one number.
pub const CHECKOUT_PER_ADDRESS: Limit = Limit { max: 20, window: Duration::from_secs(600) };
pub const CHECKOUT_PER_NUMBER: Limit = Limit { max: 10, window: Duration::from_secs(600) };

#[derive(Clone)]
pub struct BillingApi {
    db: Db,
    provider: PaymentsProvider,
    public_url: String,
    business_number: String,
    stripe: Option<StripeClient>,
    links: LinkKeys,
}

impl BillingApi {
    pub fn new(
        db: Db,
        provider: PaymentsProvider,
        public_url: &str,
        business_number: &str,
        stripe: Option<StripeClient>,
        links: LinkKeys,
    ) -> Self {
        Self {
            links,
            db,
            provider,
            public_url: public_url.to_owned(),
            business_number: business_number.to_owned(),
            stripe,
        }
    }

    /// The page after checking out: with a paid checkout's session, it shows what was paid.
    fn success_url(&self, user: &User, session: Option<&str>) -> String {
        let encode = |value: &str| {
            percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC).to_string()
        };
        let mut query = Vec::new();
        if let Some(session) = session {
            query.push(format!("session={session}")); // our UUID: nothing to escape
        }
        if let Some(phone) = &user.phone {
            query.push(format!("phoneNumber={}", encode(phone.e164())));
        }
        match query.is_empty() {
            true => format!("{}/success", self.public_url),
            false => format!("{}/success?{}", self.public_url, query.join("&")),
        }
    }

    /// The checkout page again, for this person: by number, or by a fresh opaque link.
    fn checkout_page(&self, user: &User) -> String {
        self.links.checkout_url(&self.public_url, user, self.db.now_ms())
    }

    /// Whom a checkout is for: the number in the request, the person a checkout link names, or
    /// the caller. Asked without a token, it is limited per address (and per number).
    async fn checkout_person(
        &self,
        call: &Call<CreateCheckout>,
        lang: crate::locale::Language,
    ) -> Result<User, AppError> {
        let body = call.body();
        let anonymous = call.optional_caller().is_none();
        if anonymous {
            // The public `/checkout/{phone}` page: anyone may ask, so per address and per number.
            let address = call.client_address();
            rate_limit::per_address(&self.db, "checkout", address.as_deref(), CHECKOUT_PER_ADDRESS).await?;
        }
        if !body.phone_number.trim().is_empty() || (body.link.trim().is_empty() && anonymous) {
            let phone = PhoneNumber::parse_field("phoneNumber", &body.phone_number)?;
            if anonymous {
                let number = format!("checkout:number:{}", phone.identity().e164());
                rate_limit::per_key(&self.db, &number, CHECKOUT_PER_NUMBER).await?;
            }
            let mut conn = self.db.pool().acquire().await?;
            return users::find_by_phone(&mut conn, &phone).await?.ok_or_else(|| AppError::NotRegistered {
                whatsapp_url: start_on_whatsapp(&self.business_number, lang),
            });
        }
        if !body.link.trim().is_empty() {
            let expired = Problem::Format {
                pt_br: "um link de pagamento válido (cada link vale 7 dias: peça outro no WhatsApp)",
                en: "a valid checkout link (each lasts 7 days: ask for another on WhatsApp)",
            };
            let user_id = self
                .links
                .verify(&body.link, self.db.now_ms())
                .ok_or_else(|| AppError::invalid("link", expired))?;
            let mut conn = self.db.pool().acquire().await?;
            return users::find_by_id(&mut conn, &user_id).await?.ok_or(AppError::NotFound(Resource::User));
        }
        call.optional_caller().map(|caller| caller.user.clone()).ok_or(AppError::Unauthenticated)
    }

    /// A Pro checkout through the provider: its address.
    async fn pro_checkout(
        &self,
        user: &User,
        interval: Interval,
        landing_variant: Option<Variant>,
    ) -> Result<String, AppError> {
        let variant = landing_variant.map(Variant::as_str);
        // One checkout is opened at a time per person, so that asking twice at once (two tabs, a
        // double click, a script) reopens the first instead of creating a second, here or at Stripe.
        let _one_at_a_time = self.db.lock_key(&format!("checkout:{}", user.id)).await?;
        let provider = match self.provider {
            PaymentsProvider::Sandbox => "sandbox",
            PaymentsProvider::Stripe => "stripe",
        };
        // Asking again (a reload, a second click, a script) reopens the checkout still open.
        match checkout::open_session(&self.db, &user.id, interval, provider).await? {
            Some((session, _)) if self.provider == PaymentsProvider::Sandbox => {
                return Ok(format!("{}/checkout/sandbox/{}", self.public_url, session.id));
            }
            Some((_, Some(url))) => return Ok(url),
            Some((_, None)) | None => {}
        }
        match self.provider {
            PaymentsProvider::Sandbox => {
                let session =
                    checkout::create_session(&self.db, &user.id, interval, "sandbox", variant).await?;
                Ok(format!("{}/checkout/sandbox/{}", self.public_url, session.id))
            }
            PaymentsProvider::Stripe => {
                let stripe = self
                    .stripe
                    .as_ref()
                    .ok_or_else(|| AppError::Unavailable("Stripe is not configured".into()))?;
                let session =
                    checkout::create_session(&self.db, &user.id, interval, "stripe", variant).await?;
                let cancel_url = self.checkout_page(user);
                let created = stripe
                    .create_checkout(&session, &self.success_url(user, Some(&session.id)), &cancel_url)
                    .await?;
                checkout::set_provider_session(&self.db, &session.id, &created.id, &created.url).await?;
                Ok(created.url)
            }
        }
    }
}

fn interval(value: i32) -> Interval {
    if value == pb::BillingInterval::Yearly as i32 { Interval::Yearly } else { Interval::Monthly }
}

fn interval_proto(interval: Interval) -> i32 {
    let value = match interval {
        Interval::Monthly => pb::BillingInterval::Monthly,
        Interval::Yearly => pb::BillingInterval::Yearly,
    };
    value as i32
}

fn subscription_proto(subscription: &Subscription, now: i64) -> pb::Subscription {
    pb::Subscription {
        plan_type: PlanType::Pro as i32,
        interval: interval_proto(subscription.interval),
        state: match subscription.status.as_str() {
            "active" => pb::SubscriptionState::Active,
            "past_due" => pb::SubscriptionState::PastDue,
            _ => pb::SubscriptionState::Canceled,
        } as i32,
        provider: subscription.provider.clone(),
        current_period_end: subscription.current_period_end.map(timestamp),
        cancel_at_period_end: subscription.cancel_at_period_end,
        started_at: subscription.first_paid_at.map(timestamp),
        refundable: subscription.refundable(now),
    }
}

fn tier_proto(tier: Tier) -> i32 {
    let value = match tier {
        Tier::Free => pb::SubscriptionStatus::Free,
        Tier::Pro => pb::SubscriptionStatus::Pro,
    };
    value as i32
}

impl BillingApi {
    async fn create_checkout(&self, call: Call<CreateCheckout>) -> Answer<CreateCheckout> {
        let body = call.body();
        let lang = call.named_lang(&body.language);
        let user = self.checkout_person(&call, lang).await?;
        if let Some(caller) = call.optional_caller()
            && caller.user.id != user.id
            && !caller.is_admin()
        {
            return Err(AppError::PermissionDenied);
        }
        let reply = match PlanType::try_from(body.plan_type).unwrap_or(PlanType::Unspecified) {
            PlanType::Free => pb::CreateCheckoutResponse {
                checkout_url: String::new(),
                redirect_url: self.success_url(&user, None),
            },
            PlanType::Pro => pb::CreateCheckoutResponse {
                checkout_url: self
                    .pro_checkout(&user, interval(body.interval), Variant::named(&body.landing_variant))
                    .await?,
                redirect_url: String::new(),
            },
            PlanType::Unspecified => {
                return Err(AppError::invalid("planType", Problem::one_of(&["free", "pro"])));
            }
        };
        Ok(Reply::from(reply))
    }

    async fn get_subscription_status(
        &self,
        call: Call<GetSubscriptionStatus>,
    ) -> Answer<GetSubscriptionStatus> {
        let caller = call.caller()?;
        let mut conn = self.db.pool().acquire().await?;
        let subscription = subscriptions::current(&mut conn, &caller.user.id).await?;
        Ok(Reply::from(pb::GetSubscriptionStatusResponse {
            subscription_status: tier_proto(caller.user.tier),
            subscription: subscription.as_ref().map(|s| subscription_proto(s, self.db.now_ms())),
        }))
    }

    async fn cancel_subscription(&self, call: Call<CancelSubscription>) -> Answer<CancelSubscription> {
        let caller = call.caller()?;
        let (subscription, refunded) =
            cancellation::cancel(&self.db, self.stripe.as_ref(), &caller.user.id).await?;
        let mut conn = self.db.pool().acquire().await?;
        let user = users::find_by_id(&mut conn, &caller.user.id).await?;
        let tier = user.map(|u| u.tier).unwrap_or(Tier::Free);
        let message = if refunded {
            say(
                "Assinatura cancelada e pagamento reembolsado (garantia de 7 dias).",
                "Subscription canceled and payment refunded (7-day guarantee).",
            )
        } else {
            say(
                "Assinatura cancelada. Você continua Pro até o fim do período pago.",
                "Subscription canceled. You stay Pro until the end of the paid period.",
            )
        };
        let reply = pb::CancelSubscriptionResponse {
            subscription_status: tier_proto(tier),
            subscription: Some(subscription_proto(&subscription, self.db.now_ms())),
            refunded,
        };
        Ok(Reply::with_message(reply, message))
    }

    async fn upgrade_subscription(&self, call: Call<UpgradeSubscription>) -> Answer<UpgradeSubscription> {
        let caller = call.caller()?;
        let body = call.body();
        if PlanType::try_from(body.new_plan_type).unwrap_or(PlanType::Unspecified) != PlanType::Pro {
            return Err(AppError::invalid("newPlanType", Problem::one_of(&["pro"])));
        }
        let mut conn = self.db.pool().acquire().await?;
        let current = subscriptions::current(&mut conn, &caller.user.id).await?;
        drop(conn);
        let wanted = interval(body.interval);
        let already = current
            .as_ref()
            .filter(|s| s.status == "active" && (s.interval == wanted || s.interval == Interval::Yearly));
        if let Some(subscription) = already {
            return Ok(Reply::from(pb::UpgradeSubscriptionResponse {
                checkout_url: String::new(),
                redirect_url: format!("{}/dashboard", self.public_url),
                subscription: Some(subscription_proto(subscription, self.db.now_ms())),
            }));
        }
        let checkout_url = self.pro_checkout(&caller.user, wanted, None).await?;
        Ok(Reply::from(pb::UpgradeSubscriptionResponse {
            checkout_url,
            redirect_url: String::new(),
            subscription: current.as_ref().map(|s| subscription_proto(s, self.db.now_ms())),
        }))
    }

    async fn get_checkout_result(&self, call: Call<GetCheckoutResult>) -> Answer<GetCheckoutResult> {
        let id = call.body().session_id.trim();
        let outcome = match uuid::Uuid::parse_str(id) {
            Ok(_) => checkout::outcome(&self.db, id).await?,
            Err(_) => None,
        };
        let outcome = outcome.ok_or(AppError::NotFound(Resource::CheckoutSession))?;
        let session = &outcome.session;
        Ok(Reply::from(pb::GetCheckoutResultResponse {
            session_id: session.id.clone(),
            plan_type: PlanType::Pro as i32,
            interval: interval_proto(session.interval),
            amount: session.amount_cents as f64 / 100.0,
            currency: session.currency.clone(),
            state: session.status.clone(),
            paid_at: outcome.paid_at.map(timestamp),
            receipt_url: outcome.receipt_url.clone().unwrap_or_default(),
            whatsapp_url: format!("https://wa.me/{}", self.business_number),
            provider: session.provider.clone(),
        }))
    }

    async fn get_sandbox_checkout(&self, call: Call<GetSandboxCheckout>) -> Answer<GetSandboxCheckout> {
        let (session, user) = self.sandbox_session(&call.body().session_id).await?;
        let phone = user.as_ref().map(User::handle).unwrap_or_default();
        Ok(Reply::from(pb::GetSandboxCheckoutResponse {
            session_id: session.id.clone(),
            plan_type: PlanType::Pro as i32,
            interval: interval_proto(session.interval),
            amount: session.amount_cents as f64 / 100.0,
            currency: session.currency.clone(),
            phone_number: phone,
            state: session.status,
        }))
    }

    async fn complete_sandbox_checkout(
        &self,
        call: Call<CompleteSandboxCheckout>,
    ) -> Answer<CompleteSandboxCheckout> {
        let body = call.body();
        let (session, user) = self.sandbox_session(&body.session_id).await?;
        let completed =
            checkout::complete_session(&self.db, &session.id, body.pay, &ProviderIds::default()).await?;
        let redirect_url = match (&user, completed.status == "paid") {
            (Some(user), true) => self.success_url(user, Some(&session.id)),
            (Some(user), false) => self.checkout_page(user),
            (None, _) => format!("{}/checkout", self.public_url),
        };
        Ok(Reply::from(pb::CompleteSandboxCheckoutResponse { redirect_url }))
    }

    async fn list_plans(&self, call: Call<ListPlans>) -> Answer<ListPlans> {
        let lang = call.named_lang(&call.body().language);
        let plans = plans::offers(lang).into_iter().map(plan_offer).collect();
        Ok(Reply::from(ListPlansResponse { plans }))
    }
}

rpc_service!(BillingService for BillingApi {
    create_checkout,
    get_subscription_status,
    cancel_subscription,
    upgrade_subscription,
    get_checkout_result,
    get_sandbox_checkout,
    complete_sandbox_checkout,
    list_plans,
});

impl BillingApi {
    /// A session of the sandbox provider (only while it is the provider) and its user.
    async fn sandbox_session(&self, id: &str) -> Result<(CheckoutSession, Option<User>), AppError> {
        if self.provider != PaymentsProvider::Sandbox || uuid::Uuid::parse_str(id).is_err() {
            return Err(AppError::NotFound(Resource::CheckoutSession));
        }
        let session = checkout::find_session(&self.db, id)
            .await?
            .ok_or(AppError::NotFound(Resource::CheckoutSession))?;
        let mut conn = self.db.pool().acquire().await?;
        let user = match &session.user_id {
            Some(user_id) => users::find_by_id(&mut conn, user_id).await?,
            None => None,
        };
        Ok((session, user))
    }
}

fn plan_offer(offer: Offer) -> PlanOffer {
    let reais = |cents: i64| cents as f64 / 100.0;
    PlanOffer {
        id: match offer.id {
            PlanId::Free => PlanType::Free,
            PlanId::Pro => PlanType::Pro,
        } as i32,
        name: offer.name.into(),
        price: reais(offer.monthly_cents),
        currency: "BRL".into(),
        period: offer.period.into(),
        description: offer.description.into(),
        features: offer.features.iter().map(|s| s.to_string()).collect(),
        limitations: offer.limitations.iter().map(|s| s.to_string()).collect(),
        button_text: offer.button_text.into(),
        popular: offer.popular,
        yearly_price: reais(offer.yearly_cents),
        yearly_savings: reais(offer.yearly_savings_cents()),
    }
}
