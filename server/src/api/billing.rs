//! `BillingService`: the plans on offer, checkout for a registered person (by number, by the
//! opaque link the consultant sent someone without a visible number, or as the caller), and the caller's
//! subscription (status, cancel with the 7-day guarantee, upgrade). Payments go through the
//! configured provider (`billing::payments::Payments`); the `sandbox` provider's test payment page
//! completes a checkout through the same path a provider's webhook takes.

use super::{
    call::{Answer, Call, Reply, rpc_service},
    pix_refund_proto, timestamp,
};
use crate::{
    analytics::Variant,
    billing::{
        cancellation::Refund,
        manual_refunds::{self, ManualRefunds},
        on_whatsapp,
        payments::{Payments, Requester},
        pix_key::PixKey,
        plans::{self, Offer, PlanId},
        subscriptions::{Interval, Subscription},
    },
    error::{AppError, Precondition, Problem},
    identity::{
        login::start_on_whatsapp,
        phone::PhoneNumber,
        users::{Tier, User},
    },
    proto::socio::v1::{
        self as pb, ListPlansResponse, PlanOffer, PlanType, billing_service_server::BillingService,
    },
};

#[derive(Clone)]
pub struct BillingApi {
    payments: Payments,
    refunds: ManualRefunds,
    business_number: String,
}

impl BillingApi {
    pub fn new(payments: Payments, refunds: ManualRefunds, business_number: &str) -> Self {
        Self { payments, refunds, business_number: business_number.to_owned() }
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
            self.payments.limit_address(call.client_address().as_deref()).await?;
        }
        // The signed link we sent the person names them, with or without their number beside it
        // (`/checkout/{number}?link=…`): it goes first, and counts as the person themselves.
        if !body.link.trim().is_empty() {
            let expired = Problem::Format(said!("api-billing-format-a-valid-checkout-link-each"));
            return self
                .payments
                .person_by_link(&body.link)
                .await?
                .ok_or_else(|| AppError::invalid("link", expired));
        }
        if !body.phone_number.trim().is_empty() || anonymous {
            let phone = PhoneNumber::parse_field("phoneNumber", &body.phone_number)?;
            if anonymous {
                self.payments.limit_number(&phone, call.client_address().as_deref()).await?;
            }
            return self.payments.person_by_phone(&phone).await?.ok_or_else(|| AppError::NotRegistered {
                whatsapp_url: start_on_whatsapp(&self.business_number, lang),
            });
        }
        call.optional_caller().map(|caller| caller.user.clone()).ok_or(AppError::Unauthenticated)
    }
}

/// Who asks for the checkout: the caller or the link's person themselves, else an anonymous
/// address asking by number (a checkout still open is reopened only for whoever opened it).
fn requester(call: &Call<CreateCheckout>, user: &User) -> Requester {
    let by_link = !call.body().link.trim().is_empty();
    match call.optional_caller() {
        Some(caller) => Requester::Person(caller.user.id.clone()),
        None if by_link => Requester::Person(user.id.clone()),
        None => Requester::Address(call.client_address()),
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
                redirect_url: self.payments.success_url(&user, None),
            },
            PlanType::Pro => pb::CreateCheckoutResponse {
                checkout_url: {
                    self.refuse_replacing_an_active_pro(&call, &user, interval(body.interval)).await?;
                    self.payments
                        .pro_checkout(
                            &user,
                            interval(body.interval),
                            Variant::named(&body.landing_variant),
                            &requester(&call, &user),
                        )
                        .await?
                },
                redirect_url: String::new(),
            },
            PlanType::Unspecified => {
                return Err(AppError::invalid("planType", Problem::one_of(&["free", "pro"])));
            }
        };
        Ok(Reply::from(reply))
    }

    /// A running Pro is never replaced by a checkout in passing: paying a second one would end the
    /// first unrefunded. Only the person themselves, logged in, may move a monthly Pro to yearly
    /// (as `UpgradeSubscription` does); anyone else, by number or link, is refused.
    async fn refuse_replacing_an_active_pro(
        &self,
        call: &Call<CreateCheckout>,
        user: &User,
        wanted: Interval,
    ) -> Result<(), AppError> {
        let Some(current) = self.payments.current(&user.id).await?.filter(|s| s.status == "active") else {
            return Ok(());
        };
        // The person themselves may take what their running Pro does not cover (a year over a month).
        let themselves = call.optional_caller().is_some_and(|caller| caller.user.id == user.id);
        if themselves && !current.covers(wanted) {
            return Ok(());
        }
        Err(AppError::FailedPrecondition(Precondition::AlreadyPro))
    }

    async fn get_subscription_status(
        &self,
        call: Call<GetSubscriptionStatus>,
    ) -> Answer<GetSubscriptionStatus> {
        let caller = call.caller()?;
        let subscription = self.payments.current(&caller.user.id).await?;
        let pix_refund = self.refunds.pending_for(&caller.user.id).await?;
        Ok(Reply::from(pb::GetSubscriptionStatusResponse {
            subscription_status: tier_proto(caller.user.tier),
            subscription: subscription.as_ref().map(|s| subscription_proto(s, self.payments.now_ms())),
            pix_refund: pix_refund.as_ref().map(|r| pix_refund_proto(r, false)),
        }))
    }

    async fn set_refund_pix_key(&self, call: Call<SetRefundPixKey>) -> Answer<SetRefundPixKey> {
        let caller = call.caller()?;
        let key = PixKey::parse(&call.body().pix_key).ok_or_else(|| {
            AppError::invalid("pixKey", Problem::Format(said!("api-billing-format-a-pix-key-cpf-cnpj")))
        })?;
        let refund = self.refunds.give_key(&caller.user.id, &key).await?;
        let text = manual_refunds::key_received(&refund, &key, crate::locale::current());
        let reply = pb::SetRefundPixKeyResponse { refund: Some(pix_refund_proto(&refund, false)) };
        Ok(Reply::with_message(reply, &text))
    }

    async fn cancel_subscription(&self, call: Call<CancelSubscription>) -> Answer<CancelSubscription> {
        let caller = call.caller()?;
        let (subscription, refund, tier) = self.payments.cancel(&caller.user.id).await?;
        let pix_refund = match refund {
            Refund::ByPix { .. } => self.refunds.pending_for(&caller.user.id).await?,
            Refund::None | Refund::Refunded => None,
        };
        let message = match refund {
            Refund::Refunded => {
                say!(crate::locale::current(), "api-billing-subscription-canceled-and-payment-refunded")
            }
            Refund::ByPix { .. } => {
                say!(crate::locale::current(), "api-billing-subscription-canceled-under-the-7")
            }
            Refund::None => say!(crate::locale::current(), "api-billing-subscription-canceled-you-stay-pro"),
        };
        let reply = pb::CancelSubscriptionResponse {
            subscription_status: tier_proto(tier),
            subscription: Some(subscription_proto(&subscription, self.payments.now_ms())),
            refunded: refund == Refund::Refunded,
            pix_refund: pix_refund.as_ref().map(|r| pix_refund_proto(r, false)),
        };
        Ok(Reply::with_message(reply, message))
    }

    async fn upgrade_subscription(&self, call: Call<UpgradeSubscription>) -> Answer<UpgradeSubscription> {
        let caller = call.caller()?;
        let body = call.body();
        if PlanType::try_from(body.new_plan_type).unwrap_or(PlanType::Unspecified) != PlanType::Pro {
            return Err(AppError::invalid("newPlanType", Problem::one_of(&["pro"])));
        }
        let current = self.payments.current(&caller.user.id).await?;
        let wanted = interval(body.interval);
        let already = current.as_ref().filter(|s| s.covers(wanted));
        if let Some(subscription) = already {
            return Ok(Reply::from(pb::UpgradeSubscriptionResponse {
                checkout_url: String::new(),
                redirect_url: format!("{}/dashboard", self.payments.public_url()),
                subscription: Some(subscription_proto(subscription, self.payments.now_ms())),
            }));
        }
        let requester = Requester::Person(caller.user.id.clone());
        let checkout_url = self.payments.pro_checkout(&caller.user, wanted, None, &requester).await?;
        Ok(Reply::from(pb::UpgradeSubscriptionResponse {
            checkout_url,
            redirect_url: String::new(),
            subscription: current.as_ref().map(|s| subscription_proto(s, self.payments.now_ms())),
        }))
    }

    async fn get_checkout_result(&self, call: Call<GetCheckoutResult>) -> Answer<GetCheckoutResult> {
        self.payments.limit_lookup(call.client_address().as_deref()).await?;
        let outcome = self.payments.outcome(call.body().session_id.trim()).await?;
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
        self.payments.limit_lookup(call.client_address().as_deref()).await?;
        let (session, _) = self.payments.sandbox_session(&call.body().session_id).await?;
        Ok(Reply::from(pb::GetSandboxCheckoutResponse {
            session_id: session.id.clone(),
            plan_type: PlanType::Pro as i32,
            interval: interval_proto(session.interval),
            amount: session.amount_cents as f64 / 100.0,
            currency: session.currency.clone(),
            state: session.status,
        }))
    }

    async fn complete_sandbox_checkout(
        &self,
        call: Call<CompleteSandboxCheckout>,
    ) -> Answer<CompleteSandboxCheckout> {
        let body = call.body();
        let redirect_url = self.payments.complete_sandbox(&body.session_id, body.pay).await?;
        Ok(Reply::from(pb::CompleteSandboxCheckoutResponse { redirect_url }))
    }

    async fn list_plans(&self, call: Call<ListPlans>) -> Answer<ListPlans> {
        let lang = call.named_lang(&call.body().language);
        let plans = plans::offers(lang).into_iter().map(|offer| self.plan_offer(offer, lang)).collect();
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
    set_refund_pix_key,
});

impl BillingApi {
    fn plan_offer(&self, offer: Offer, lang: crate::locale::Language) -> PlanOffer {
        let reais = |cents: i64| cents as f64 / 100.0;
        let number = &self.business_number;
        let (whatsapp_url, yearly_whatsapp_url) = match offer.id {
            PlanId::Free => (start_on_whatsapp(number, lang), String::new()),
            PlanId::Pro => (
                on_whatsapp::subscribe_url(number, Interval::Monthly, lang),
                on_whatsapp::subscribe_url(number, Interval::Yearly, lang),
            ),
        };
        PlanOffer {
            id: match offer.id {
                PlanId::Free => PlanType::Free,
                PlanId::Pro => PlanType::Pro,
            } as i32,
            yearly_savings: reais(offer.yearly_savings_cents()),
            name: offer.name,
            price: reais(offer.monthly_cents),
            currency: "BRL".into(),
            period: offer.period,
            description: offer.description,
            features: offer.features,
            limitations: offer.limitations,
            button_text: offer.button_text,
            popular: offer.popular,
            yearly_price: reais(offer.yearly_cents),
            whatsapp_url,
            yearly_whatsapp_url,
        }
    }
}
