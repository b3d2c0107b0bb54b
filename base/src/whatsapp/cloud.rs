//! Meta's WhatsApp Cloud API: `POST {graph}/{phone-number-id}/messages` with the access token; a
//! file is uploaded first (`POST {graph}/{phone-number-id}/media`) and sent as a `document` message
//! naming the media id. Meta offers no idempotency key, so the caller sends each message once and
//! only a crash in the middle of a request can repeat it.

use std::time::Duration;

use futures::future::BoxFuture;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    choices,
    sender::{Document, Outgoing, SendError, Sent, WhatsAppSender},
    templates::Template,
};
use crate::{
    config::{Secret, WhatsAppConfig},
    locale::Language,
};

/// Error codes worth another try: Meta's transient and rate-limit errors.
const RETRYABLE_CODES: &[i64] = &[1, 2, 4, 17, 341, 80007, 130429, 131000, 131016, 131056, 133004];

pub struct CloudSender {
    http: reqwest::Client,
    messages_url: String,
    media_url: String,
    token: Secret,
    otp_template: String,
    notice_template: String,
    checkin_template: String,
    reminder_template: String,
}

impl CloudSender {
    pub fn new(config: &WhatsAppConfig) -> anyhow::Result<Self> {
        let phone_number_id = config
            .phone_number_id
            .clone()
            .ok_or_else(|| anyhow::anyhow!("WHATSAPP_PHONE_NUMBER_ID is required in cloud mode"))?;
        let token = config
            .access_token
            .clone()
            .ok_or_else(|| anyhow::anyhow!("WHATSAPP_ACCESS_TOKEN is required in cloud mode"))?;
        Ok(Self {
            http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(5))
                .timeout(Duration::from_secs(20))
                .build()?,
            messages_url: format!("{}/{phone_number_id}/messages", config.graph_url),
            media_url: format!("{}/{phone_number_id}/media", config.graph_url),
            token,
            otp_template: config.otp_template.clone(),
            notice_template: config.notice_template.clone(),
            checkin_template: config.checkin_template.clone(),
            reminder_template: config.reminder_template.clone(),
        })
    }

    /// The message's body; a document names the id its upload was given.
    fn body(&self, message: &Outgoing, media_id: &str) -> Value {
        match message {
            // Meta's "Document messages": the uploaded media's id, the file name (its extension
            // picks the icon) and a caption.
            Outgoing::Document { to, file, caption } => json!({
                "messaging_product": "whatsapp",
                "recipient_type": "individual",
                "to": to,
                "type": "document",
                "document": { "id": media_id, "filename": file.file_name, "caption": caption },
            }),
            Outgoing::Choices { to, body, choices, list_label } => {
                match choices::interactive(body, choices, list_label) {
                    Some(interactive) => json!({
                        "messaging_product": "whatsapp",
                        "recipient_type": "individual",
                        "to": to,
                        "type": "interactive",
                        "interactive": interactive,
                    }),
                    None => self.body(&Outgoing::Text { to: to.clone(), body: body.clone() }, media_id),
                }
            }
            Outgoing::Text { to, body } => json!({
                "messaging_product": "whatsapp",
                "recipient_type": "individual",
                "to": to,
                "type": "text",
                "text": { "preview_url": true, "body": body },
            }),
            Outgoing::Notice { to, body, language } => json!({
                "messaging_product": "whatsapp",
                "recipient_type": "individual",
                "to": to,
                "type": "template",
                "template": {
                    "name": self.notice_template,
                    "language": { "code": template_language(*language) },
                    "components": [{ "type": "body", "parameters": [{ "type": "text", "text": body }] }],
                },
            }),
            // A template's body variables, in order ("Template messages", Cloud API reference:
            // developers.facebook.com/docs/whatsapp/cloud-api/guides/send-message-templates).
            Outgoing::Template { to, template, params, language } => json!({
                "messaging_product": "whatsapp",
                "recipient_type": "individual",
                "to": to,
                "type": "template",
                "template": {
                    "name": match template {
                        Template::Checkin => &self.checkin_template,
                        Template::Reminder => &self.reminder_template,
                    },
                    "language": { "code": template_language(*language) },
                    "components": [{
                        "type": "body",
                        "parameters": params.iter().map(|p| json!({ "type": "text", "text": p })).collect::<Vec<_>>(),
                    }],
                },
            }),
            Outgoing::LoginCode { to, code, language } => json!({
                "messaging_product": "whatsapp",
                "recipient_type": "individual",
                "to": to,
                "type": "template",
                "template": {
                    "name": self.otp_template,
                    "language": { "code": template_language(*language) },
                    "components": [
                        { "type": "body", "parameters": [{ "type": "text", "text": code }] },
                        { "type": "button", "sub_type": "url", "index": "0", "parameters": [{ "type": "text", "text": code }] },
                    ],
                },
            }),
        }
    }

    /// `POST /{phone-number-id}/messages`.
    async fn post(&self, body: &Value) -> Result<bytes::Bytes, SendError> {
        answer(self.http.post(&self.messages_url).bearer_auth(self.token.expose()).json(body).send().await)
            .await
    }

    /// `POST /{phone-number-id}/media` as multipart form data (`messaging_product`, `type`, `file`),
    /// per Meta's "Media" reference (developers.facebook.com/docs/whatsapp/cloud-api/reference/media),
    /// answered `{"id": "<media id>"}`.
    async fn upload(&self, file: &Document) -> Result<String, SendError> {
        let part = reqwest::multipart::Part::bytes(file.bytes.to_vec())
            .file_name(file.file_name.clone())
            .mime_str(&file.mime_type)
            .map_err(|e| SendError::Permanent(format!("not a MIME type: {e}")))?;
        let form = reqwest::multipart::Form::new()
            .text("messaging_product", "whatsapp")
            .text("type", file.mime_type.clone())
            .part("file", part);
        let sent =
            self.http.post(&self.media_url).bearer_auth(self.token.expose()).multipart(form).send().await;
        let bytes = answer(sent).await?;
        #[derive(Deserialize)]
        struct Uploaded {
            id: String,
        }
        serde_json::from_slice::<Uploaded>(&bytes)
            .map(|u| u.id)
            .map_err(|e| SendError::Retryable(format!("unexpected Cloud API answer to an upload: {e}")))
    }

    async fn send_message(&self, message: &Outgoing) -> Result<Sent, SendError> {
        let media_id = match message {
            Outgoing::Document { file, .. } => self.upload(file).await?,
            Outgoing::Text { .. }
            | Outgoing::LoginCode { .. }
            | Outgoing::Notice { .. }
            | Outgoing::Choices { .. }
            | Outgoing::Template { .. } => String::new(),
        };
        let mut body = self.body(message, &media_id);
        address(&mut body, message.to());
        let bytes = self.post(&body).await?;
        let answer: SendResponse = serde_json::from_slice(&bytes)
            .map_err(|e| SendError::Retryable(format!("unexpected Cloud API answer: {e}")))?;
        answer
            .messages
            .into_iter()
            .next()
            .map(|m| Sent { wa_message_id: m.id })
            .ok_or_else(|| SendError::Retryable("the Cloud API answer has no message id".into()))
    }
}

/// Addresses a message body: a phone's digits go in `to`; a business-scoped user id goes in
/// `recipient` instead (Meta's "Business-scoped user IDs" page: the send API takes `recipient` for
/// a person known only by BSUID, and `to` wins when both are present, so only one is sent).
fn address(body: &mut Value, to: &str) {
    if let (Some(fields), true) = (body.as_object_mut(), super::sender::is_business_scoped(to)) {
        fields.remove("to");
        fields.insert("recipient".into(), Value::String(to.to_owned()));
    }
}

/// The answer's body when Meta accepted the request, else the error classified as retryable or
/// permanent.
async fn answer(sent: Result<reqwest::Response, reqwest::Error>) -> Result<bytes::Bytes, SendError> {
    let response =
        sent.map_err(|e| SendError::Retryable(format!("Cloud API unreachable: {}", without_url(&e))))?;
    let status = response.status();
    let bytes = response
        .bytes()
        .await
        .map_err(|e| SendError::Retryable(format!("Cloud API answer cut short: {}", without_url(&e))))?;
    if status.is_success() { Ok(bytes) } else { Err(classify(status.as_u16(), &bytes)) }
}

impl WhatsAppSender for CloudSender {
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Sent, SendError>> {
        Box::pin(self.send_message(message))
    }

    /// Meta's "Typing indicators" (developers.facebook.com/documentation/business-messaging/whatsapp/typing-indicators):
    /// a read receipt for the message with `typing_indicator`, answered `{"success": true}`.
    fn show_typing<'a>(
        &'a self,
        _to: &'a str,
        wa_message_id: &'a str,
    ) -> BoxFuture<'a, Result<(), SendError>> {
        Box::pin(async move {
            let body = json!({
                "messaging_product": "whatsapp",
                "status": "read",
                "message_id": wa_message_id,
                "typing_indicator": { "type": "text" },
            });
            self.post(&body).await.map(|_| ())
        })
    }
}

#[derive(Deserialize)]
struct SendResponse {
    #[serde(default)]
    messages: Vec<MessageId>,
}

#[derive(Deserialize)]
struct MessageId {
    id: String,
}

#[derive(Deserialize)]
struct ErrorBody {
    error: GraphError,
}

#[derive(Deserialize)]
struct GraphError {
    #[serde(default)]
    code: i64,
    #[serde(default)]
    message: String,
    error_data: Option<GraphErrorData>,
}

#[derive(Deserialize)]
struct GraphErrorData {
    #[serde(default)]
    details: String,
}

/// Retryable or permanent, by HTTP status and Meta's error code.
fn classify(http_status: u16, body: &[u8]) -> SendError {
    let parsed = serde_json::from_slice::<ErrorBody>(body).ok().map(|b| b.error);
    let reason = match &parsed {
        Some(e) => {
            let details = e.error_data.as_ref().map(|d| d.details.as_str()).unwrap_or_default();
            format!("HTTP {http_status}, code {}: {} {details}", e.code, e.message).trim().to_owned()
        }
        None => format!("HTTP {http_status}"),
    };
    let code = parsed.map(|e| e.code).unwrap_or_default();
    if http_status == 429 || http_status >= 500 || RETRYABLE_CODES.contains(&code) {
        SendError::Retryable(reason)
    } else {
        SendError::Permanent(reason)
    }
}

fn template_language(language: Language) -> &'static str {
    match language {
        Language::PtBr => "pt_BR",
        Language::En => "en",
    }
}

/// reqwest errors print the URL; ours has no secret in it, but keep messages short.
fn without_url(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    if let Some(url) = err.url() {
        text = text.replace(url.as_str(), "the Cloud API");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_person_known_only_by_business_scoped_id_is_addressed_as_recipient() {
        let mut to_phone = json!({ "messaging_product": "whatsapp", "to": "5511987654321", "type": "text" });
        address(&mut to_phone, "5511987654321");
        assert_eq!((to_phone["to"].as_str(), to_phone.get("recipient")), (Some("5511987654321"), None));
        let mut to_bsuid =
            json!({ "messaging_product": "whatsapp", "to": "BR.1502576394655843", "type": "text" });
        address(&mut to_bsuid, "BR.1502576394655843");
        assert_eq!((to_bsuid.get("to"), to_bsuid["recipient"].as_str()), (None, Some("BR.1502576394655843")));
    }

    #[test]
    fn throughput_and_server_errors_are_retried() {
        let throughput = br#"{"error":{"message":"(#130429) Rate limit hit","type":"OAuthException","code":130429,"error_data":{"details":"Cloud API message throughput has been reached."}}}"#;
        assert!(matches!(classify(400, throughput), SendError::Retryable(r) if r.contains("130429")));
        assert!(matches!(classify(500, b"oops"), SendError::Retryable(_)));
        assert!(matches!(classify(429, b""), SendError::Retryable(_)));
    }

    #[test]
    fn window_and_number_errors_are_permanent() {
        let window = br#"{"error":{"message":"Re-engagement message","code":131047}}"#;
        assert!(matches!(classify(400, window), SendError::Permanent(r) if r.contains("131047")));
        let invalid = br#"{"error":{"message":"Invalid parameter","code":100}}"#;
        assert!(matches!(classify(400, invalid), SendError::Permanent(_)));
    }
}
