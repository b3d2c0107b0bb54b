//! `TestApp`'s calls, one helper per call, shared by every test file: registering and logging in,
//! a REST call with the envelope back, a raw gRPC status, writing on the simulator and waiting for
//! the reply, and making someone Pro.

use serde_json::{Value, json};
use socio::{
    identity::{
        contact::Contact,
        phone::PhoneNumber,
        users::{self, Tier},
    },
    locale::Language,
};

use crate::helpers::{TestApp, eventually};

impl TestApp {
    /// Registers the number as if its owner had written on WhatsApp (as "Ana Lima", in pt-BR):
    /// the user's id.
    pub async fn register(&self, phone: &str) -> String {
        self.register_speaking(phone, Language::PtBr).await
    }

    /// Registers the number as a contact who speaks `language`: the user's id.
    pub async fn register_speaking(&self, phone: &str, language: Language) -> String {
        let mut tx = self.db.begin().await.unwrap();
        let contact = Contact::phone(PhoneNumber::parse(phone).unwrap());
        let user = users::Users::new(self.db.clone())
            .register_in(&mut tx, &contact, users::Spelling::Delivered, "Ana Lima", language)
            .await
            .unwrap()
            .user;
        tx.commit().await.unwrap();
        user.id
    }

    /// Registers the number (when new) and makes its owner Pro: the user's id.
    pub async fn make_pro(&self, phone: &str, language: Language) -> String {
        let id = self.register_speaking(phone, language).await;
        let mut tx = self.db.begin().await.unwrap();
        users::Users::new(self.db.clone()).set_tier_in(&mut tx, &id, Tier::Pro).await.unwrap();
        tx.commit().await.unwrap();
        id
    }

    /// A REST call in pt-BR with an optional bearer token: the HTTP status and the envelope.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Value,
        token: Option<&str>,
    ) -> (u16, Value) {
        let mut request =
            self.http.request(method, format!("{}{path}", self.address)).header("accept-language", "pt-BR");
        if !body.is_null() {
            request = request.json(&body);
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn send_code(&self, phone: &str) -> (u16, Value) {
        let body = json!({"phoneNumber": phone, "language": "pt-BR"});
        self.call(reqwest::Method::POST, "/api/auth/send-code", body, None).await
    }

    pub async fn verify(&self, phone: &str, code: &str) -> (u16, Value) {
        let body = json!({"phoneNumber": phone, "verificationCode": code, "language": "pt-BR"});
        self.call(reqwest::Method::POST, "/api/auth/verify-code", body, None).await
    }

    /// The newest login code the dev outbox holds for the number.
    pub async fn code_in_outbox(&self, phone: &str) -> String {
        let e164 = PhoneNumber::parse(phone).unwrap().e164().to_owned();
        let messages = self.outbox_messages(&e164).await;
        let last =
            messages.iter().rev().find(|m| m["kind"] == "login_code").expect("a login code in the outbox");
        last["text"].as_str().unwrap().chars().filter(char::is_ascii_digit).take(6).collect()
    }

    /// Logs in with the code sent over WhatsApp: the access and refresh tokens.
    pub async fn login(&self, phone: &str) -> (String, String) {
        assert_eq!(self.send_code(phone).await.0, 200);
        let code = self.code_in_outbox(phone).await;
        let (status, body) = self.verify(phone, &code).await;
        assert_eq!(status, 200, "{body}");
        (
            body["data"]["token"].as_str().unwrap().to_owned(),
            body["data"]["refreshToken"].as_str().unwrap().to_owned(),
        )
    }

    pub async fn me(&self, token: &str) -> (u16, Value) {
        self.call(reqwest::Method::GET, "/api/auth/me", Value::Null, Some(token)).await
    }

    /// A native gRPC call with an empty request: its grpc-status ("" when the reply is streaming).
    pub async fn grpc_status(&self, path: &str, token: Option<&str>) -> String {
        let client = reqwest::Client::builder().http2_prior_knowledge().build().unwrap();
        let mut request = client
            .post(format!("{}{path}", self.address))
            .header("content-type", "application/grpc")
            .header("te", "trailers")
            .body(vec![0u8, 0, 0, 0, 0]);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        response.headers().get("grpc-status").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default()
    }

    /// The texts the product sent to the number (login codes and notices left out), oldest first.
    pub async fn texts_to(&self, phone: &str) -> Vec<String> {
        self.outbox_messages(phone)
            .await
            .iter()
            .filter(|m| m["kind"] == "text" || m["kind"] == "interactive")
            .filter_map(|m| m["text"].as_str().map(str::to_owned))
            .collect()
    }

    /// Writes on the simulator as the number and waits until everything the product answered has
    /// gone out (a long answer's parts, an offer after it): all of it, in order.
    pub async fn say_all(&self, phone: &str, text: &str) -> String {
        let before = self.texts_to(phone).await.len();
        let body = json!({"from": phone, "name": "Ana Lima", "text": text}).to_string();
        let (status, _) = self.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &body).await;
        assert_eq!(status, 200);
        eventually("a reply", || async { self.texts_to(phone).await.len() > before }).await;
        eventually("the whole answer sent", || async {
            self.count(
                "select count(*) as n from messages where direction = 'outbound' and status in ('queued', 'sending')",
            )
            .await
                == 0
        })
        .await;
        self.texts_to(phone).await[before..].join("\n\n")
    }

    /// Writes on the simulator as the number and waits for the product's reply.
    pub async fn say(&self, phone: &str, text: &str) -> String {
        let before = self.texts_to(phone).await.len();
        let body = json!({"from": phone, "name": "Ana Lima", "text": text}).to_string();
        let (status, _) = self.rest_send(reqwest::Method::POST, "/api/dev/whatsapp/inbound", &body).await;
        assert_eq!(status, 200);
        eventually("a reply", || async { self.texts_to(phone).await.len() > before }).await;
        self.texts_to(phone).await.last().cloned().unwrap()
    }
}
