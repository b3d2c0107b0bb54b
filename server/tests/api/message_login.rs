//! Logging in by sending a message: the browser starts a login and shows a text; the person sends
//! it from WhatsApp (the dev simulator here, the same inbox as Meta's webhook) and confirms there;
//! the browser gets the tokens exactly once. Refusals, expiry, a wrong text, someone else's tap,
//! and a person without a visible number.

use reqwest::Method;
use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, TestDatabase, eventually, spawn_app_with},
    on_both_engines,
};

const ANA: &str = "+5511987654321";
const BIA: &str = "BR.1502576394655843";

async fn app(db: TestDatabase) -> TestApp {
    spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "20".into())]).await
}

/// A started login: (loginId, the text to send, the whole answer).
async fn start(app: &TestApp) -> (String, String, Value) {
    let (status, body) =
        app.call(Method::POST, "/api/auth/whatsapp-login", json!({"language": "pt-BR"}), None).await;
    assert_eq!(status, 200, "{body}");
    let data = body["data"].clone();
    (data["loginId"].as_str().unwrap().to_owned(), data["text"].as_str().unwrap().to_owned(), data)
}

async fn standing(app: &TestApp, login_id: &str) -> Value {
    let (status, body) =
        app.call(Method::GET, &format!("/api/auth/whatsapp-login/{login_id}"), Value::Null, None).await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

/// What a person sends from the simulator: `who` is a number or a BSUID; `choice` a tapped id.
async fn send(app: &TestApp, who: &str, text: &str, choice: Option<&str>) {
    let mut body = if who.starts_with('+') {
        json!({"from": who, "name": "Ana Lima", "text": text})
    } else {
        json!({"userId": who, "username": "@bia.doces", "name": "Bia", "text": text})
    };
    if let Some(choice) = choice {
        body["choice"] = json!(choice);
    }
    let (status, answer) = app.call(Method::POST, "/api/dev/whatsapp/inbound", body, None).await;
    assert_eq!(status, 200, "{answer}");
}

/// The messages the simulator shows the person (a number or a BSUID).
async fn outbox(app: &TestApp, who: &str) -> Vec<Value> {
    let query = if who.starts_with('+') {
        format!("phone={}", who.replace('+', "%2B"))
    } else {
        format!("userId={who}")
    };
    let (_, body) =
        app.call(Method::GET, &format!("/api/dev/whatsapp/outbox?{query}"), Value::Null, None).await;
    body["data"]["messages"].as_array().cloned().unwrap_or_default()
}

/// Waits for the question "was it you?" and returns its two choices' ids (yes, no).
async fn asked(app: &TestApp, who: &str) -> (String, String) {
    eventually("the person is asked on WhatsApp", || async {
        outbox(app, who).await.iter().any(|m| m["choices"].as_array().is_some_and(|c| c.len() == 2))
    })
    .await;
    let messages = outbox(app, who).await;
    let question =
        messages.iter().rev().find(|m| m["choices"].as_array().is_some_and(|c| c.len() == 2)).unwrap();
    let text = question["text"].as_str().unwrap();
    assert!(text.contains("Um navegador pediu para entrar") && text.contains("Foi você?"), "{text}");
    let choices = question["choices"].as_array().unwrap();
    assert_eq!(choices[0]["title"], "Sim, sou eu");
    assert_eq!(choices[1]["title"], "Não fui eu");
    (choices[0]["id"].as_str().unwrap().to_owned(), choices[1]["id"].as_str().unwrap().to_owned())
}

async fn a_person_logs_in_by_sending_the_text_and_confirming_and_the_tokens_come_once(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, started) = start(&app).await;
    assert!(login_id.len() >= 32, "at least 128 random bits: {login_id}");
    assert!(!text.contains(&login_id), "the browser's secret never goes to WhatsApp");
    let url = started["whatsappUrl"].as_str().unwrap();
    assert!(url.starts_with("https://wa.me/5511900000000?text=Quero%20entrar"), "{url}");
    assert!(started["expiresAt"].as_str().is_some(), "{started}");
    assert_eq!(standing(&app, &login_id).await["status"], "waiting");

    send(&app, ANA, &text, None).await;
    let (yes, _) = asked(&app, ANA).await;
    assert_eq!(standing(&app, &login_id).await["status"], "waiting", "sending the text logs nobody in");

    send(&app, ANA, "Sim, sou eu", Some(&yes)).await;
    eventually("the confirmation is told on WhatsApp", || async {
        outbox(&app, ANA).await.iter().any(|m| m["text"].as_str().unwrap_or_default().contains("Pronto!"))
    })
    .await;
    let first = standing(&app, &login_id).await;
    assert_eq!(first["status"], "confirmed", "{first}");
    let token = first["token"].as_str().unwrap().to_owned();
    assert!(!token.is_empty() && !first["refreshToken"].as_str().unwrap().is_empty(), "{first}");
    let (status, me) = app.me(&token).await;
    assert_eq!((status, me["data"]["user"]["phoneNumber"].as_str()), (200, Some(ANA)), "{me}");

    let again = standing(&app, &login_id).await;
    assert_eq!((again["status"].as_str(), again["token"].as_str()), (Some("confirmed"), Some("")), "once");
    app.drain_jobs().await;
    let texts: Vec<String> =
        outbox(&app, ANA).await.iter().map(|m| m["text"].as_str().unwrap().to_owned()).collect();
    assert_eq!(texts.len(), 2, "the question and the confirmation, nothing from the consultant: {texts:?}");
}
on_both_engines!(a_person_logs_in_by_sending_the_text_and_confirming_and_the_tokens_come_once);

async fn of_many_browsers_asking_at_once_only_one_gets_the_tokens(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, _) = start(&app).await;
    send(&app, ANA, &text, None).await;
    let (yes, _) = asked(&app, ANA).await;
    send(&app, ANA, "Sim, sou eu", Some(&yes)).await;
    let answers = futures::future::join_all((0..8).map(|_| standing(&app, &login_id))).await;
    let with_tokens = answers.iter().filter(|a| !a["token"].as_str().unwrap_or_default().is_empty()).count();
    assert_eq!(with_tokens, 1, "{answers:?}");
    assert!(answers.iter().all(|a| a["status"] == "confirmed"));
}
on_both_engines!(of_many_browsers_asking_at_once_only_one_gets_the_tokens);

async fn it_wasnt_me_refuses_the_login_and_a_typed_no_works_too(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, _) = start(&app).await;
    send(&app, ANA, &text, None).await;
    let (_, no) = asked(&app, ANA).await;
    send(&app, ANA, "Não fui eu", Some(&no)).await;
    let refused = standing(&app, &login_id).await;
    assert_eq!((refused["status"].as_str(), refused["token"].as_str()), (Some("refused"), Some("")));

    let (login_id, text, _) = start(&app).await;
    send(&app, ANA, &text, None).await;
    eventually("asked again", || async { outbox(&app, ANA).await.len() >= 3 }).await;
    send(&app, ANA, "não", None).await;
    assert_eq!(standing(&app, &login_id).await["status"], "refused");
}
on_both_engines!(it_wasnt_me_refuses_the_login_and_a_typed_no_works_too);

async fn a_text_that_matches_no_login_or_comes_too_late_logs_nobody_in_and_is_answered_kindly(
    db: TestDatabase,
) {
    let app = app(db).await;
    send(&app, ANA, "Quero entrar no site do Sócio. Código: KKK-KKK", None).await;
    eventually("a kind answer", || async {
        outbox(&app, ANA)
            .await
            .iter()
            .any(|m| m["text"].as_str().unwrap_or_default().contains("não vale mais"))
    })
    .await;

    let (login_id, text, _) = start(&app).await;
    app.db.clock().advance(socio::identity::message_login::LOGIN_TTL_MS + 1);
    send(&app, ANA, &text, None).await;
    eventually("the late text gets the same answer", || async {
        outbox(&app, ANA)
            .await
            .iter()
            .filter(|m| m["text"].as_str().unwrap_or_default().contains("não vale mais"))
            .count()
            == 2
    })
    .await;
    assert_eq!(standing(&app, &login_id).await["status"], "expired");
    let (status, unknown) =
        app.call(Method::GET, "/api/auth/whatsapp-login/not-a-login", Value::Null, None).await;
    assert_eq!(status, 404, "{unknown}");
}
on_both_engines!(a_text_that_matches_no_login_or_comes_too_late_logs_nobody_in_and_is_answered_kindly);

async fn only_the_person_who_sent_the_text_can_confirm_it(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, _) = start(&app).await;
    send(&app, ANA, &text, None).await;
    let (yes, _) = asked(&app, ANA).await;
    // Someone else replays Ana's tap.
    send(&app, "+5521912345678", "Sim, sou eu", Some(&yes)).await;
    assert_eq!(standing(&app, &login_id).await["status"], "waiting");
}
on_both_engines!(only_the_person_who_sent_the_text_can_confirm_it);

async fn someone_without_a_visible_number_logs_in_by_message(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, _) = start(&app).await;
    send(&app, BIA, &text, None).await;
    let (yes, _) = asked(&app, BIA).await;
    send(&app, BIA, "Sim, sou eu", Some(&yes)).await;
    let confirmed = standing(&app, &login_id).await;
    let (status, me) = app.me(confirmed["token"].as_str().unwrap()).await;
    assert_eq!(status, 200, "{me}");
    let user = &me["data"]["user"];
    assert_eq!(
        (user["phoneNumber"].as_str(), user["username"].as_str()),
        (Some(""), Some("@bia.doces")),
        "{me}"
    );
}
on_both_engines!(someone_without_a_visible_number_logs_in_by_message);

async fn starting_logins_by_message_is_limited_per_address(db: TestDatabase) {
    let app = app(db).await;
    let mut statuses = Vec::new();
    for _ in 0..62 {
        let (status, _) =
            app.call(Method::POST, "/api/auth/whatsapp-login", json!({"language": "en"}), None).await;
        statuses.push(status);
    }
    assert!(statuses[..60].iter().all(|s| *s == 200), "{statuses:?}");
    assert_eq!(statuses[61], 429, "{statuses:?}");
}
on_both_engines!(starting_logins_by_message_is_limited_per_address);
