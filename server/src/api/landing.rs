//! `LandingService`: what the public landing page calls — landing views and checkout starts by
//! variant for the admin's funnel, newsletter sign-ups with consent, and how to reach us.
//! Rate-limited per client address, in the database so every server process shares the limit.

use std::time::Duration;

use tonic::{Request, Response};

use super::{Rpc, client_address, named_language, with_message};
use crate::{
    analytics::{self, EventKind, Variant, VisitorId},
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::{AppError, FieldViolation, Problem},
    newsletter::{self, Email},
    proto::socio::v1::{self as pb, landing_service_server::LandingService},
};

/// A page load sends one or two events; this leaves room for a busy shared address.
const EVENTS_PER_ADDRESS: Limit = Limit { max: 120, window: Duration::from_secs(60) };
const SIGNUPS_PER_ADDRESS: Limit = Limit { max: 10, window: Duration::from_secs(3600) };

#[derive(Clone)]
pub struct LandingApi {
    db: Db,
    business_number: String,
    support_email: String,
}

impl LandingApi {
    pub fn new(db: Db, business_number: &str, support_email: &str) -> Self {
        Self { db, business_number: business_number.to_owned(), support_email: support_email.to_owned() }
    }
}

async fn limit<T>(db: &Db, request: &Request<T>, action: &str, limit: Limit) -> Result<(), AppError> {
    rate_limit::per_address(db, action, client_address::of(request).as_deref(), limit).await
}

/// "5511900000000" → "+55 (11) 90000-0000"; other numbers with a "+" in front.
fn display_number(digits: &str) -> String {
    match (digits.len(), digits.strip_prefix("55")) {
        (13, Some(national)) => format!("+55 ({}) {}-{}", &national[..2], &national[2..7], &national[7..]),
        (12, Some(national)) => format!("+55 ({}) {}-{}", &national[..2], &national[2..6], &national[6..]),
        _ => format!("+{digits}"),
    }
}

#[tonic::async_trait]
impl LandingService for LandingApi {
    async fn track_event(&self, request: Request<pb::TrackEventRequest>) -> Rpc<pb::TrackEventResponse> {
        let body = request.get_ref();
        let kind = match pb::LandingEventKind::try_from(body.kind)
            .unwrap_or(pb::LandingEventKind::Unspecified)
        {
            pb::LandingEventKind::LandingView => EventKind::LandingView,
            pb::LandingEventKind::CheckoutStart => EventKind::CheckoutStart,
            pb::LandingEventKind::Unspecified => {
                return Err(
                    AppError::invalid("kind", Problem::one_of(&["landing_view", "checkout_start"])).into()
                );
            }
        };
        let visitor = VisitorId::parse(&body.visitor_id).ok_or_else(|| {
            AppError::invalid(
                "visitorId",
                Problem::Format {
                    pt_br: "deve ter de 8 a 64 letras, dígitos ou hífens",
                    en: "must be 8 to 64 letters, digits or dashes",
                },
            )
        })?;
        limit(&self.db, &request, "track", EVENTS_PER_ADDRESS).await?;
        analytics::record(&self.db, kind, Variant::parse(&body.variant), &visitor)
            .await
            .map_err(AppError::from)?;
        Ok(Response::new(pb::TrackEventResponse {}))
    }

    async fn subscribe_newsletter(
        &self,
        request: Request<pb::SubscribeNewsletterRequest>,
    ) -> Rpc<pb::SubscribeNewsletterResponse> {
        let body = request.get_ref();
        let lang = named_language(&request, &body.language);
        let mut violations = Vec::new();
        let email = Email::parse(&body.email);
        if email.is_none() {
            let problem = if body.email.trim().is_empty() {
                Problem::Required
            } else {
                Problem::Format { pt_br: "não é um e-mail válido", en: "is not a valid e-mail address" }
            };
            violations.push(FieldViolation::new("email", problem));
        }
        if !body.consent {
            violations.push(FieldViolation::new("consent", Problem::Required));
        }
        let Some(email) = email.filter(|_| violations.is_empty()) else {
            return Err(AppError::InvalidInput(violations).into());
        };
        limit(&self.db, &request, "newsletter", SIGNUPS_PER_ADDRESS).await?;
        newsletter::subscribe(&self.db, &email, lang).await.map_err(AppError::from)?;
        Ok(with_message(
            pb::SubscribeNewsletterResponse {},
            lang.choose("Pronto! Você vai receber nossas dicas.", "Done! You will get our tips."),
        ))
    }

    async fn get_contact(&self, _request: Request<pb::GetContactRequest>) -> Rpc<pb::GetContactResponse> {
        Ok(Response::new(pb::GetContactResponse {
            whatsapp_number: display_number(&self.business_number),
            whatsapp_url: format!("https://wa.me/{}", self.business_number),
            email: self.support_email.clone(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::display_number;

    #[test]
    fn the_business_number_reads_as_people_write_it() {
        assert_eq!(display_number("5511900000000"), "+55 (11) 90000-0000");
        assert_eq!(display_number("551140001234"), "+55 (11) 4000-1234");
        assert_eq!(display_number("14155550100"), "+14155550100");
    }
}
