//! The sender port: everything the product says over WhatsApp (replies, login codes, billing
//! notices) goes through one `WhatsAppSender`. `cloud` talks to Meta; `outbox` is the dev stand-in.

use std::sync::Arc;

use futures::future::BoxFuture;

use super::templates::Template;
use crate::{locale::Language, telemetry::metrics};

/// Whether a WhatsApp address is a business-scoped user id (`BR.1502576394655843`) rather than a
/// number's digits.
pub fn is_business_scoped(to: &str) -> bool {
    super::payload::bsuid(to).is_some()
}

/// A message to send. `to` is the person's WhatsApp address: the number's digits with country code
/// (`5511987654321`), or their business-scoped user id (`BR.1502576394655843`) when WhatsApp does
/// not show their number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outgoing {
    /// Free text: only inside the 24-hour customer-service window.
    Text { to: String, body: String },
    /// A one-time login code: the approved authentication template in the cloud.
    LoginCode { to: String, code: String, language: Language },
    /// A notice (billing, account) outside the 24-hour window: the approved notice template with
    /// the text as its one parameter.
    Notice { to: String, body: String, language: Language },
    /// A file the person can download (the business plan's PDF), with a caption: only inside the
    /// 24-hour window. The Cloud API uploads it first, then sends a `document` message.
    Document { to: String, file: Document, caption: String },
    /// A closed question: free text with answers to tap (buttons or a list), only inside the
    /// 24-hour window; `list_label` names a list's button. Sent as plain text when Meta's limits
    /// do not allow taps (`choices::interactive`).
    Choices { to: String, body: String, choices: Vec<super::choices::Choice>, list_label: String },
    /// A proactive message the person asked for (check-in, fiscal reminder) outside the 24-hour
    /// window: an approved template with its variables.
    Template { to: String, template: Template, params: Vec<String>, language: Language },
}

/// A file to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// With its extension: WhatsApp shows the icon for it (`plano-de-negocios-v3.pdf`).
    pub file_name: String,
    pub mime_type: String,
    pub bytes: bytes::Bytes,
}

impl Outgoing {
    pub fn to(&self) -> &str {
        match self {
            Outgoing::Text { to, .. }
            | Outgoing::LoginCode { to, .. }
            | Outgoing::Notice { to, .. }
            | Outgoing::Document { to, .. }
            | Outgoing::Choices { to, .. }
            | Outgoing::Template { to, .. } => to,
        }
    }

    /// What the person reads.
    pub fn text(&self) -> String {
        match self {
            Outgoing::Text { body, .. } | Outgoing::Notice { body, .. } | Outgoing::Choices { body, .. } => {
                body.clone()
            }
            Outgoing::Document { caption, .. } => caption.clone(),
            Outgoing::Template { template, params, language, .. } => template.text(params, *language),
            Outgoing::LoginCode { code, language, .. } => {
                say!(*language, "whatsapp-sender-is-your-s-cio-login", code)
            }
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            Outgoing::Text { .. } => "text",
            Outgoing::LoginCode { .. } => "login_code",
            Outgoing::Notice { .. } => "notice",
            Outgoing::Document { .. } => "document",
            Outgoing::Choices { .. } => "interactive",
            Outgoing::Template { .. } => "template",
        }
    }
}

/// WhatsApp accepted the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// `wamid…`, which delivery statuses refer to.
    pub wa_message_id: String,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// Worth trying again later: network errors, 5xx, rate and throughput limits.
    #[error("{0}")]
    Retryable(String),
    /// Will fail the same way again: outside the window, invalid number, bad template.
    #[error("{0}")]
    Permanent(String),
}

pub trait WhatsAppSender: Send + Sync + 'static {
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Sent, SendError>>;

    /// Marks the person's message as read and shows them that an answer is being typed, until it
    /// arrives or for about 25 seconds. `to` is the person's digits, `wa_message_id` their message.
    fn show_typing<'a>(&'a self, to: &'a str, wa_message_id: &'a str)
    -> BoxFuture<'a, Result<(), SendError>>;
}

/// A sender whose every send is counted by kind and outcome (`socio_whatsapp_sends_total`).
pub struct Measured(pub Arc<dyn WhatsAppSender>);

impl WhatsAppSender for Measured {
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Sent, SendError>> {
        Box::pin(async move {
            let result = self.0.send(message).await;
            let outcome = match &result {
                Ok(_) => "sent",
                Err(SendError::Retryable(_)) => "retryable",
                Err(SendError::Permanent(_)) => "failed",
            };
            metrics::whatsapp_send(message.kind(), outcome);
            result
        })
    }

    fn show_typing<'a>(
        &'a self,
        to: &'a str,
        wa_message_id: &'a str,
    ) -> BoxFuture<'a, Result<(), SendError>> {
        self.0.show_typing(to, wa_message_id)
    }
}
