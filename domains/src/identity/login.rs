//! Logging in with a code sent over WhatsApp. Only numbers that wrote to us (or admins') are
//! registered; anyone else is pointed to WhatsApp to start. Every step is limited per number and
//! per client address, and logged as a security event with the number masked — never the code.

use std::{sync::Arc, time::Duration};

use super::{
    codes::{self, CodeHasher},
    phone::PhoneNumber,
    sessions::{self, TokenKeys, TokenPair},
    users::{self, User},
};
use crate::{
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::{AppError, Problem},
    locale::Language,
    whatsapp::sender::{Outgoing, SendError, WhatsAppSender},
};

const SEND_PER_ADDRESS: Limit = Limit { max: 20, window: Duration::from_secs(600) };
const VERIFY_PER_ADDRESS: Limit = Limit { max: 40, window: Duration::from_secs(600) };
/// Refreshes from one client address, whatever the session: an office behind one address has
/// many people, each renewing every 15 minutes.
pub const REFRESH_PER_ADDRESS_MINUTE: Limit = Limit { max: 120, window: Duration::from_secs(60) };
pub const REFRESH_PER_ADDRESS_HOUR: Limit = Limit { max: 1_200, window: Duration::from_secs(3_600) };

/// `https://wa.me/<number>?text=<greeting>`: where someone who never wrote to us starts.
pub fn start_on_whatsapp(business_number: &str, lang: Language) -> String {
    let greeting = say!(lang, "identity-login-hi-i-want-to-start");
    let text = percent_encoding::utf8_percent_encode(&greeting, percent_encoding::NON_ALPHANUMERIC);
    format!("https://wa.me/{business_number}?text={text}")
}

#[derive(Clone)]
pub struct Login {
    db: Db,
    sender: Arc<dyn WhatsAppSender>,
    hasher: CodeHasher,
    keys: TokenKeys,
    business_number: String,
    /// How long after its first use a refresh token still renews its session
    /// (`REFRESH_REUSE_INTERVAL_S`): two tabs at once, or an answer lost on the way.
    refresh_reuse: Duration,
}

/// A code is on its way.
#[derive(Clone, Copy, Debug)]
pub struct CodeSent {
    pub expires_in: Duration,
    pub resend_after: Duration,
}

impl Login {
    pub fn new(
        db: Db,
        sender: Arc<dyn WhatsAppSender>,
        hasher: CodeHasher,
        keys: TokenKeys,
        business_number: &str,
        refresh_reuse: Duration,
    ) -> Self {
        Self { db, sender, hasher, keys, business_number: business_number.to_owned(), refresh_reuse }
    }

    /// `https://wa.me/<number>?text=<greeting>`: where an unregistered visitor starts.
    pub fn whatsapp_url(&self, lang: Language) -> String {
        start_on_whatsapp(&self.business_number, lang)
    }

    pub async fn send_code(
        &self,
        phone: &str,
        lang: Language,
        address: Option<&str>,
    ) -> Result<CodeSent, AppError> {
        let phone = PhoneNumber::parse_field("phoneNumber", phone)?;
        rate_limit::per_address(&self.db, "send_code", address, SEND_PER_ADDRESS).await?;
        let now = self.db.now_ms();
        let mut tx = self.db.begin().await?;
        let Some(user) = users::find_by_phone(&mut tx, &phone).await? else {
            tracing::info!(target: "security", event = "code_refused_unregistered", phone = %phone.masked());
            return Err(AppError::NotRegistered { whatsapp_url: self.whatsapp_url(lang) });
        };
        codes::check_can_send(&mut tx, &phone, now).await?;
        let code = codes::generate();
        let id = codes::store(&mut tx, &self.hasher, &phone, &code, now).await?;
        tx.commit().await?;

        // To the wa_id WhatsApp knows the person by, however they typed their number.
        // Found by its number, so the account has one (authentication templates need a number:
        // Meta refuses them to a business-scoped id, error 131062).
        let to = user.phone.as_ref().map_or(phone.digits(), |p| p.digits()).to_owned();
        let message = Outgoing::LoginCode { to, code, language: lang };
        if let Err(err) = self.sender.send(&message).await {
            codes::discard(&self.db, &id).await?;
            let reason = match err {
                SendError::Retryable(r) | SendError::Permanent(r) => r,
            };
            return Err(AppError::Unavailable(format!("the login code could not be sent: {reason}")));
        }
        tracing::info!(target: "security", event = "code_sent", phone = %phone.masked());
        Ok(CodeSent { expires_in: codes::CODE_TTL, resend_after: codes::RESEND_AFTER })
    }

    pub async fn verify_code(
        &self,
        phone: &str,
        code: &str,
        address: Option<&str>,
    ) -> Result<(User, TokenPair), AppError> {
        let phone = PhoneNumber::parse_field("phoneNumber", phone)?;
        let code = code.trim();
        if code.is_empty() {
            return Err(AppError::invalid("verificationCode", Problem::Required));
        }
        if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
            return Err(AppError::invalid(
                "verificationCode",
                Problem::Format(said!("identity-login-format-the-code-has-6-digits")),
            ));
        }
        rate_limit::per_address(&self.db, "verify_code", address, VERIFY_PER_ADDRESS).await?;
        if let Err(err) = codes::redeem(&self.db, &self.hasher, &phone, code).await {
            tracing::warn!(target: "security", event = "code_failed", phone = %phone.masked());
            return Err(err);
        }
        let mut conn = self.db.pool().acquire().await?;
        let user = users::find_by_phone(&mut conn, &phone).await?.ok_or(AppError::InvalidCode)?;
        users::record_login(&mut conn, &user.id, self.db.now_ms()).await?;
        drop(conn);
        let pair = sessions::start(&self.db, &self.keys, &user).await?;
        tracing::info!(target: "security", event = "login", user = %user.id, phone = %phone.masked());
        Ok((user, pair))
    }

    /// A new pair for a refresh token, within the address's budget and the session's
    /// (`sessions::rotate` spends that one, on each new pair it makes).
    pub async fn refresh(&self, refresh_token: &str, address: Option<&str>) -> Result<TokenPair, AppError> {
        let refresh_token = refresh_token.trim();
        if refresh_token.is_empty() {
            return Err(AppError::invalid("refreshToken", Problem::Required));
        }
        rate_limit::per_address(&self.db, "refresh:minute", address, REFRESH_PER_ADDRESS_MINUTE).await?;
        rate_limit::per_address(&self.db, "refresh:hour", address, REFRESH_PER_ADDRESS_HOUR).await?;
        sessions::rotate(&self.db, &self.keys, refresh_token, self.refresh_reuse).await
    }

    /// Ends the session of the access token and, when given, of the refresh token.
    pub async fn logout(&self, session_id: Option<&str>, refresh_token: &str) -> Result<(), AppError> {
        if let Some(session) = session_id {
            sessions::revoke_family(&self.db, session).await?;
        }
        if !refresh_token.trim().is_empty()
            && let Some(family) = sessions::family_of(&self.db, &self.keys, refresh_token.trim()).await?
        {
            sessions::revoke_family(&self.db, &family).await?;
        }
        Ok(())
    }
}
