//! `LandingService`: what the public landing page calls — landing views and checkout starts by
//! variant for the admin's funnel, newsletter sign-ups with consent, how to reach us, and what it
//! may claim (`proof`).
//! Rate-limited per client address (by the services), in the database so every server process
//! shares the limit.

use super::{
    call::{Answer, Call, Reply, rpc_service},
    enum_field,
};
use crate::{
    analytics::{EventKind, Funnel, Variant, VisitorId},
    error::{AppError, FieldViolation, Problem},
    newsletter::{Email, Newsletter},
    proof::Proof,
    proto::socio::v1::{self as pb, landing_service_server::LandingService},
};

#[derive(Clone)]
pub struct LandingApi {
    funnel: Funnel,
    newsletter: Newsletter,
    proof: Proof,
    /// The business's WhatsApp number, when one is configured.
    business_number: Option<String>,
    support_email: String,
    controller: crate::config::Controller,
}

impl LandingApi {
    pub fn new(
        (funnel, newsletter, proof): (Funnel, Newsletter, Proof),
        business_number: Option<&str>,
        support_email: &str,
        controller: crate::config::Controller,
    ) -> Self {
        Self {
            funnel,
            newsletter,
            proof,
            business_number: business_number.map(str::to_owned),
            support_email: support_email.to_owned(),
            controller,
        }
    }
}

/// "5511900000000" → "+55 (11) 90000-0000"; other numbers with a "+" in front.
fn display_number(digits: &str) -> String {
    match (digits.len(), digits.strip_prefix("55")) {
        (13, Some(national)) => format!("+55 ({}) {}-{}", &national[..2], &national[2..7], &national[7..]),
        (12, Some(national)) => format!("+55 ({}) {}-{}", &national[..2], &national[2..6], &national[6..]),
        _ => format!("+{digits}"),
    }
}

impl LandingApi {
    async fn track_event(&self, call: Call<TrackEvent>) -> Answer<TrackEvent> {
        let body = call.body();
        let kind = enum_field(body.kind, "kind", &["landing_view", "checkout_start"], |k| match k {
            pb::LandingEventKind::LandingView => Some(EventKind::LandingView),
            pb::LandingEventKind::CheckoutStart => Some(EventKind::CheckoutStart),
            pb::LandingEventKind::Unspecified => None,
        })?;
        let visitor = VisitorId::parse(&body.visitor_id).ok_or_else(|| {
            AppError::invalid("visitorId", Problem::Format(said!("api-landing-format-must-be-8-to-64")))
        })?;
        let address = call.client_address();
        self.funnel.track(kind, Variant::parse(&body.variant), &visitor, address.as_deref()).await?;
        Ok(Reply::from(pb::TrackEventResponse {}))
    }

    async fn subscribe_newsletter(&self, call: Call<SubscribeNewsletter>) -> Answer<SubscribeNewsletter> {
        let body = call.body();
        let lang = call.named_lang(&body.language);
        let mut violations = Vec::new();
        let email = Email::parse(&body.email);
        if email.is_none() {
            let problem = if body.email.trim().is_empty() {
                Problem::Required
            } else {
                Problem::Format(said!("api-landing-format-is-not-a-valid-e"))
            };
            violations.push(FieldViolation::new("email", problem));
        }
        if !body.consent {
            violations.push(FieldViolation::new("consent", Problem::Required));
        }
        let Some(email) = email.filter(|_| violations.is_empty()) else {
            return Err(AppError::InvalidInput(violations));
        };
        self.newsletter.subscribe(&email, lang, call.client_address().as_deref()).await?;
        let notice = say!(crate::locale::current(), "api-landing-done-you-will-get-our");
        Ok(Reply::with_message(pb::SubscribeNewsletterResponse {}, notice))
    }

    async fn get_proof(&self, call: Call<GetProof>) -> Answer<GetProof> {
        let lang = call.named_lang(&call.body().language);
        let counts = self.proof.counts().await?;
        Ok(Reply::from(pb::GetProofResponse {
            plans_created: counts.plans_created,
            states: counts.states.iter().map(|s| (*s).to_owned()).collect(),
            testimonials: self
                .proof
                .testimonials(lang)
                .into_iter()
                .map(|t| pb::Testimonial { name: t.name, role: t.role, text: t.text })
                .collect(),
        }))
    }

    async fn get_contact(&self, _call: Call<GetContact>) -> Answer<GetContact> {
        Ok(Reply::from(pb::GetContactResponse {
            // No number configured (dev mode): none is shown, rather than a placeholder.
            whatsapp_number: self.business_number.as_deref().map(display_number).unwrap_or_default(),
            whatsapp_url: self
                .business_number
                .as_ref()
                .map(|n| format!("https://wa.me/{n}"))
                .unwrap_or_default(),
            email: self.support_email.clone(),
            controller_name: self.controller.name.clone(),
            controller_cnpj: self.controller.cnpj.clone(),
        }))
    }
}

rpc_service!(LandingService for LandingApi {
    get_contact,
    get_proof,
    track_event,
    subscribe_newsletter,
});

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
