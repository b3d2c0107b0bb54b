//! Meta's webhook deliveries as the bench sends them: signed with the fake app's secret, every
//! message from the sender given.

use serde_json::{Value, json};

use crate::fakes::{APP_SECRET, PHONE_NUMBER_ID};

/// A signed delivery, as Meta sends it, of `texts` from `(digits, message id)` senders.
pub fn delivery(messages: &[(String, String, String)]) -> Vec<u8> {
    let contacts: Vec<Value> = messages
        .iter()
        .map(|(from, _, _)| json!({"profile": {"name": "Cliente Bench"}, "wa_id": from}))
        .collect();
    let messages: Vec<Value> = messages
        .iter()
        .map(|(from, id, text)| {
            json!({"from": from, "id": id, "timestamp": "1795253580", "type": "text", "text": {"body": text}})
        })
        .collect();
    serde_json::to_vec(&json!({
        "object": "whatsapp_business_account",
        "entry": [{"id": "102290129340398", "changes": [{"field": "messages", "value": {
            "messaging_product": "whatsapp",
            "metadata": {"display_phone_number": "5511900000000", "phone_number_id": PHONE_NUMBER_ID},
            "contacts": contacts, "messages": messages}}]}]
    }))
    .expect("json")
}

/// Posts a signed delivery to the server's webhook; whether it answered 2xx.
pub async fn post_delivery(http: &reqwest::Client, base: &str, body: Vec<u8>) -> bool {
    let signature = socio::whatsapp::signature::sign(APP_SECRET.as_bytes(), &body);
    http.post(format!("{base}/api/webhooks/whatsapp"))
        .header("content-type", "application/json")
        .header("x-hub-signature-256", signature)
        .body(body)
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
}
