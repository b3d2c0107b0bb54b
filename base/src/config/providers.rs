//! The providers' settings: WhatsApp (dev simulator or Meta's Cloud API, its templates, batching
//! and per-message rates), the model's API and the payments provider (sandbox or Stripe).

use std::time::Duration;

use super::{ConfigError, Secret, parse_number, required};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhatsAppMode {
    /// Outbound messages go to the outbox the simulator page shows.
    Dev,
    /// Meta's WhatsApp Cloud API.
    Cloud,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaymentsProvider {
    Sandbox,
    Stripe,
}

#[derive(Clone, Debug)]
pub struct WhatsAppConfig {
    pub mode: WhatsAppMode,
    /// The number every wa.me link points to. Required in cloud mode; in dev mode, unset, a
    /// placeholder keeps the links well formed and `business_number_set` is false, so nothing
    /// shows it to people as a real number.
    pub business_number: String,
    pub business_number_set: bool,
    pub graph_url: String,
    pub phone_number_id: Option<String>,
    pub access_token: Option<Secret>,
    pub app_secret: Option<Secret>,
    pub verify_token: Option<Secret>,
    pub otp_template: String,
    /// Approved utility template (one body parameter) for notices outside the 24-hour window.
    pub notice_template: String,
    /// Approved utility templates of the proactive messages people asked for (docs/business-plan.md, "Staying
    /// on track"): the monthly check-in and the fiscal reminders.
    pub checkin_template: String,
    pub reminder_template: String,
    /// How long to wait for more messages of a burst before replying: the window restarts with
    /// each message of the person's…
    pub batch_window: Duration,
    /// …but a reply waits no longer than this after the burst's first message.
    pub batch_max: Duration,
    /// What Meta charges per billable message, by category, in reais: the admin's cost estimate.
    pub rates: MessageRates,
}

/// Meta's per-message rates for Brazilian numbers by template category, in BRL (the admin's
/// estimate of what WhatsApp costs). Defaults: Meta's Brazil rates effective 1 January 2026 (USD
/// 0.0625 marketing, 0.0068 utility, 0.0068 authentication; Meta's "Pricing" page and rate card)
/// at R$ 5.40 to the dollar; service messages beyond the monthly free allowance (metered since
/// 1 October 2026) are estimated at the utility rate until Meta publishes theirs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MessageRates {
    pub marketing: f64,
    pub utility: f64,
    pub authentication: f64,
    pub service: f64,
}

impl Default for MessageRates {
    fn default() -> Self {
        Self { marketing: 0.3375, utility: 0.0367, authentication: 0.0367, service: 0.0367 }
    }
}

impl MessageRates {
    /// The rate of one of the four categories (`analytics::costs` sorts what Meta reports into
    /// them); anything else is service.
    pub fn of(&self, category: &str) -> f64 {
        match category {
            "marketing" => self.marketing,
            "utility" => self.utility,
            "authentication" => self.authentication,
            _ => self.service,
        }
    }
}

#[derive(Clone, Debug)]
pub struct LlmConfig {
    pub base_url: String,
    pub api_key: Option<Secret>,
    pub model: String,
    pub transcribe_model: Option<String>,
    pub timeout: Duration,
}

#[derive(Clone, Debug)]
pub struct StripeConfig {
    pub secret_key: Secret,
    pub webhook_secret: Secret,
    pub price_pro_monthly: String,
    pub price_pro_yearly: String,
    pub api_url: String,
}

pub(super) fn whatsapp_config(var: &dyn Fn(&str) -> Option<String>) -> Result<WhatsAppConfig, ConfigError> {
    let mode = match var("WHATSAPP_MODE").as_deref() {
        None | Some("dev") => WhatsAppMode::Dev,
        Some("cloud") => WhatsAppMode::Cloud,
        Some(other) => {
            return Err(ConfigError(format!("WHATSAPP_MODE must be dev or cloud, not {other:?}")));
        }
    };
    let cloud_required = |key: &str| match mode {
        WhatsAppMode::Cloud => required(var, key, "WHATSAPP_MODE=cloud").map(Some),
        WhatsAppMode::Dev => Ok(var(key)),
    };
    let configured_number = cloud_required("WHATSAPP_BUSINESS_NUMBER")?;
    let business_number_set = configured_number.is_some();
    let business_number: String = configured_number
        .unwrap_or_else(|| "5511900000000".into())
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if !(8..=15).contains(&business_number.len()) {
        return Err(ConfigError("WHATSAPP_BUSINESS_NUMBER must have 8 to 15 digits".into()));
    }
    Ok(WhatsAppConfig {
        mode,
        business_number,
        business_number_set,
        graph_url: var("WHATSAPP_GRAPH_URL")
            .unwrap_or_else(|| "https://graph.facebook.com/v23.0".into())
            .trim_end_matches('/')
            .to_owned(),
        phone_number_id: cloud_required("WHATSAPP_PHONE_NUMBER_ID")?,
        access_token: cloud_required("WHATSAPP_ACCESS_TOKEN")?.map(Secret::new),
        app_secret: cloud_required("WHATSAPP_APP_SECRET")?.map(Secret::new),
        verify_token: var("WHATSAPP_VERIFY_TOKEN").map(Secret::new),
        otp_template: var("WHATSAPP_OTP_TEMPLATE").unwrap_or_else(|| "login_code".into()),
        notice_template: var("WHATSAPP_NOTICE_TEMPLATE").unwrap_or_else(|| "account_notice".into()),
        checkin_template: var("WHATSAPP_TEMPLATE_CHECKIN").unwrap_or_else(|| "monthly_checkin".into()),
        reminder_template: var("WHATSAPP_TEMPLATE_REMINDER").unwrap_or_else(|| "fiscal_reminder".into()),
        batch_window: Duration::from_millis(parse_number(var, "WHATSAPP_BATCH_WINDOW_MS", 4000)?),
        batch_max: Duration::from_millis(parse_number(var, "WHATSAPP_BATCH_MAX_MS", 15_000)?),
        rates: message_rates(var)?,
    })
}

/// `WHATSAPP_RATE_{MARKETING,UTILITY,AUTHENTICATION,SERVICE}_BRL`: reais per billable message.
pub(super) fn message_rates(var: &dyn Fn(&str) -> Option<String>) -> Result<MessageRates, ConfigError> {
    let defaults = MessageRates::default();
    let rate = |key: &str, default: f64| match var(key) {
        None => Ok(default),
        Some(value) => value
            .trim()
            .replace(',', ".")
            .parse::<f64>()
            .ok()
            .filter(|r| r.is_finite() && *r >= 0.0 && *r < 100.0)
            .ok_or_else(|| ConfigError(format!("{key} must be reais per message, like 0.04"))),
    };
    Ok(MessageRates {
        marketing: rate("WHATSAPP_RATE_MARKETING_BRL", defaults.marketing)?,
        utility: rate("WHATSAPP_RATE_UTILITY_BRL", defaults.utility)?,
        authentication: rate("WHATSAPP_RATE_AUTHENTICATION_BRL", defaults.authentication)?,
        service: rate("WHATSAPP_RATE_SERVICE_BRL", defaults.service)?,
    })
}

/// The model's API (`LLM_*`); None without `LLM_BASE_URL`: the offline guided consultant.
pub(super) fn llm_config(var: &dyn Fn(&str) -> Option<String>) -> Result<Option<LlmConfig>, ConfigError> {
    let llm_timeout = Duration::from_secs(parse_number(&var, "LLM_TIMEOUT_S", 25)?);
    Ok(var("LLM_BASE_URL").map(|base_url| LlmConfig {
        base_url: base_url.trim_end_matches('/').to_owned(),
        api_key: var("LLM_API_KEY").map(Secret::new),
        model: var("LLM_MODEL").unwrap_or_else(|| "gpt-4o-mini".into()),
        transcribe_model: var("LLM_TRANSCRIBE_MODEL"),
        timeout: llm_timeout,
    }))
}

/// `PAYMENTS_PROVIDER` and, for Stripe, its keys and prices (`STRIPE_*`).
pub(super) fn payments(
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<(PaymentsProvider, Option<StripeConfig>), ConfigError> {
    let payments = match var("PAYMENTS_PROVIDER").as_deref() {
        None | Some("sandbox") => PaymentsProvider::Sandbox,
        Some("stripe") => PaymentsProvider::Stripe,
        Some(other) => {
            return Err(ConfigError(format!("PAYMENTS_PROVIDER must be sandbox or stripe, not {other:?}")));
        }
    };
    let stripe = match payments {
        PaymentsProvider::Sandbox => None,
        PaymentsProvider::Stripe => Some(StripeConfig {
            secret_key: Secret::new(required(&var, "STRIPE_SECRET_KEY", "PAYMENTS_PROVIDER=stripe")?),
            webhook_secret: Secret::new(required(&var, "STRIPE_WEBHOOK_SECRET", "PAYMENTS_PROVIDER=stripe")?),
            price_pro_monthly: required(&var, "STRIPE_PRICE_PRO_MONTHLY", "PAYMENTS_PROVIDER=stripe")?,
            price_pro_yearly: required(&var, "STRIPE_PRICE_PRO_YEARLY", "PAYMENTS_PROVIDER=stripe")?,
            api_url: var("STRIPE_API_URL").unwrap_or_else(|| "https://api.stripe.com".into()),
        }),
    };
    Ok((payments, stripe))
}
