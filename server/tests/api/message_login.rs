//! Logging in by sending a message: the browser starts a login and shows a text; the person sends
//! it from WhatsApp (the dev simulator here, the same inbox as Meta's webhook) and confirms there by
//! tapping the number the browser shows; the browser gets the tokens exactly once. Another number,
//! typed words, other questions' buttons, a question left behind, an admin, expiry, a wrong text,
//! someone else's tap, and a person without a visible number.

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

/// What a browser on Windows says of itself.
const CHROME_ON_WINDOWS: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/// A started login: (loginId, the text to send, the whole answer).
async fn start(app: &TestApp) -> (String, String, Value) {
    let response = app
        .http
        .post(format!("{}/api/auth/whatsapp-login", app.address))
        .header("user-agent", CHROME_ON_WINDOWS)
        .json(&json!({"language": "pt-BR"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let data = body["data"].clone();
    (data["loginId"].as_str().unwrap().to_owned(), data["text"].as_str().unwrap().to_owned(), data)
}

/// The number the browser shows.
fn match_code(started: &Value) -> i64 {
    started["matchCode"].as_i64().unwrap()
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

/// The numbers a login question offers: (id, title) of each.
type Numbers = Vec<(String, String)>;

/// Waits for the newest question "was it you?" and returns its three numbers.
async fn asked(app: &TestApp, who: &str, questions_before: usize) -> Numbers {
    let questions = |messages: Vec<Value>| -> Vec<Value> {
        messages.into_iter().filter(|m| m["choices"].as_array().is_some_and(|c| c.len() == 3)).collect()
    };
    eventually("the person is asked on WhatsApp", || async {
        questions(outbox(app, who).await).len() > questions_before
    })
    .await;
    let question = questions(outbox(app, who).await).pop().unwrap();
    let text = question["text"].as_str().unwrap();
    assert!(text.contains("pediu para entrar") && text.contains("Foi você?"), "{text}");
    question["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_str().unwrap().to_owned(), c["title"].as_str().unwrap().to_owned()))
        .collect()
}

/// Taps `number` among the question's numbers.
async fn tap(app: &TestApp, who: &str, numbers: &Numbers, number: i64) {
    let (id, title) = numbers.iter().find(|(_, title)| *title == number.to_string()).expect("offered");
    send(app, who, title, Some(id)).await;
}

/// One of the numbers that is not the browser's.
fn another(numbers: &Numbers, number: i64) -> i64 {
    numbers.iter().map(|(_, t)| t.parse::<i64>().unwrap()).find(|n| *n != number).unwrap()
}

async fn last_text(app: &TestApp, who: &str) -> String {
    app.drain_jobs().await;
    outbox(app, who).await.last().map(|m| m["text"].as_str().unwrap().to_owned()).unwrap_or_default()
}

async fn a_person_logs_in_by_tapping_the_number_their_browser_shows_and_the_tokens_come_once(
    db: TestDatabase,
) {
    let app = app(db).await;
    let (login_id, text, started) = start(&app).await;
    assert!(login_id.len() >= 32, "at least 128 random bits: {login_id}");
    assert!(!text.contains(&login_id), "the browser's secret never goes to WhatsApp");
    let url = started["whatsappUrl"].as_str().unwrap();
    assert!(url.starts_with("https://wa.me/5511900000000?text=Quero%20entrar"), "{url}");
    assert!(started["expiresAt"].as_str().is_some(), "{started}");
    let number = match_code(&started);
    assert!((10..=99).contains(&number), "two digits: {started}");
    assert_eq!(standing(&app, &login_id).await["status"], "waiting");

    send(&app, ANA, &text, None).await;
    let numbers = asked(&app, ANA, 0).await;
    assert_eq!(numbers.iter().filter(|(_, t)| *t == number.to_string()).count(), 1, "{numbers:?}");
    assert!(numbers.iter().all(|(_, t)| t.len() == 2), "three two-digit numbers: {numbers:?}");
    let question = outbox(&app, ANA).await.last().unwrap()["text"].as_str().unwrap().to_owned();
    assert!(question.contains("Um navegador Chrome no Windows pediu"), "names the browser: {question}");
    let time = question.split("às ").nth(1).unwrap().chars().take(5).collect::<String>();
    assert!(
        !question.replace(&time, "").contains(&number.to_string()),
        "the question never gives the number away: {question}"
    );
    assert_eq!(standing(&app, &login_id).await["status"], "waiting", "sending the text logs nobody in");

    tap(&app, ANA, &numbers, number).await;
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
on_both_engines!(a_person_logs_in_by_tapping_the_number_their_browser_shows_and_the_tokens_come_once);

async fn of_many_browsers_asking_at_once_only_one_gets_the_tokens(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, started) = start(&app).await;
    send(&app, ANA, &text, None).await;
    let numbers = asked(&app, ANA, 0).await;
    tap(&app, ANA, &numbers, match_code(&started)).await;
    let answers = futures::future::join_all((0..8).map(|_| standing(&app, &login_id))).await;
    let with_tokens = answers.iter().filter(|a| !a["token"].as_str().unwrap_or_default().is_empty()).count();
    assert_eq!(with_tokens, 1, "{answers:?}");
    assert!(answers.iter().all(|a| a["status"] == "confirmed"));
}
on_both_engines!(of_many_browsers_asking_at_once_only_one_gets_the_tokens);

async fn another_number_cancels_the_login_and_a_typed_no_too(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, started) = start(&app).await;
    send(&app, ANA, &text, None).await;
    let numbers = asked(&app, ANA, 0).await;
    tap(&app, ANA, &numbers, another(&numbers, match_code(&started))).await;
    let refused = standing(&app, &login_id).await;
    assert_eq!((refused["status"].as_str(), refused["token"].as_str()), (Some("refused"), Some("")));
    assert!(last_text(&app, ANA).await.contains("não é o número do navegador"));
    // The right number after a wrong one changes nothing.
    tap(&app, ANA, &numbers, match_code(&started)).await;
    assert_eq!(standing(&app, &login_id).await["status"], "refused");

    let (login_id, text, _) = start(&app).await;
    send(&app, ANA, &text, None).await;
    asked(&app, ANA, 1).await;
    send(&app, ANA, "não", None).await;
    assert_eq!(standing(&app, &login_id).await["status"], "refused");
}
on_both_engines!(another_number_cancels_the_login_and_a_typed_no_too);

/// The attack: someone starts a login and gets the victim to send its text (a link, a QR code);
/// the victim ignores the question, chats, and later says "sim" or taps another question's "Sim".
async fn typed_words_and_other_questions_buttons_never_confirm_a_login(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, started) = start(&app).await;
    send(&app, ANA, &text, None).await;
    let numbers = asked(&app, ANA, 0).await;
    for words in ["sim", "s", "Sim, sou eu", "yes"] {
        send(&app, ANA, words, None).await;
        assert_eq!(standing(&app, &login_id).await["status"], "waiting", "{words}");
    }
    assert!(last_text(&app, ANA).await.contains("toque aqui no número"), "a typed yes is asked to tap");
    // Asked again, the same three numbers: one common to several sets would give the right one away.
    let mut shown: Vec<Numbers> = outbox(&app, ANA)
        .await
        .into_iter()
        .filter_map(|m| m["choices"].as_array().filter(|c| c.len() == 3).cloned())
        .map(|c| {
            let mut set: Numbers = c
                .iter()
                .map(|c| (c["id"].as_str().unwrap().to_owned(), c["title"].as_str().unwrap().to_owned()))
                .collect();
            set.sort();
            set
        })
        .collect();
    assert_eq!(shown.len(), 5, "the question and its four re-asks");
    shown.dedup();
    assert_eq!(shown.len(), 1, "{shown:?}");
    // Tapping the right number on the question asked again would log in; nobody does here.
    for button in
        ["login:yes:".to_owned() + &text[text.len() - 7..].replace('-', ""), "reminders.yes".to_owned()]
    {
        send(&app, ANA, "Sim", Some(&button)).await;
        assert_eq!(standing(&app, &login_id).await["status"], "waiting", "{button}");
    }
    // They chat with the consultant: the question is no longer the latest message.
    let before = outbox(&app, ANA).await.len();
    send(&app, ANA, "Quero abrir uma padaria em Campinas", None).await;
    eventually("the consultant answers", || async { outbox(&app, ANA).await.len() > before }).await;
    app.drain_jobs().await;
    send(&app, ANA, "sim", None).await;
    assert_eq!(standing(&app, &login_id).await["status"], "waiting", "a later sim is the consultant's");
    // Even the right number, tapped on a question we have moved on from, cancels.
    tap(&app, ANA, &numbers, match_code(&started)).await;
    let standing_now = standing(&app, &login_id).await;
    assert_eq!(
        (standing_now["status"].as_str(), standing_now["token"].as_str()),
        (Some("refused"), Some(""))
    );
}
on_both_engines!(typed_words_and_other_questions_buttons_never_confirm_a_login);

async fn an_admin_is_never_logged_in_by_a_message(db: TestDatabase) {
    let app =
        spawn_app_with(db, &[("WHATSAPP_BATCH_WINDOW_MS", "20".into()), ("ADMIN_PHONES", ANA.into())]).await;
    let (login_id, text, _) = start(&app).await;
    send(&app, ANA, &text, None).await;
    eventually("the admin is told to use a code", || async {
        outbox(&app, ANA)
            .await
            .iter()
            .any(|m| m["text"].as_str().unwrap_or_default().contains("só com o código"))
    })
    .await;
    let answer = standing(&app, &login_id).await;
    assert_eq!((answer["status"].as_str(), answer["token"].as_str()), (Some("code_required"), Some("")));
    assert!(
        outbox(&app, ANA).await.iter().all(|m| m["choices"].as_array().is_none_or(|c| c.is_empty())),
        "nothing to tap"
    );
}
on_both_engines!(an_admin_is_never_logged_in_by_a_message);

async fn someone_made_an_admin_after_confirming_gets_no_tokens(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, started) = start(&app).await;
    send(&app, ANA, &text, None).await;
    let numbers = asked(&app, ANA, 0).await;
    tap(&app, ANA, &numbers, match_code(&started)).await;
    eventually("confirmed", || async {
        outbox(&app, ANA).await.iter().any(|m| m["text"].as_str().unwrap_or_default().contains("Pronto!"))
    })
    .await;
    sqlx::query("update users set role = 'admin'").execute(app.db.pool()).await.unwrap();
    let answer = standing(&app, &login_id).await;
    assert_eq!((answer["status"].as_str(), answer["token"].as_str()), (Some("code_required"), Some("")));
}
on_both_engines!(someone_made_an_admin_after_confirming_gets_no_tokens);

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
    let (login_id, text, started) = start(&app).await;
    send(&app, ANA, &text, None).await;
    let numbers = asked(&app, ANA, 0).await;
    // Someone else replays Ana's tap.
    tap(&app, "+5521912345678", &numbers, match_code(&started)).await;
    assert_eq!(standing(&app, &login_id).await["status"], "waiting");
}
on_both_engines!(only_the_person_who_sent_the_text_can_confirm_it);

async fn someone_without_a_visible_number_logs_in_by_message(db: TestDatabase) {
    let app = app(db).await;
    let (login_id, text, started) = start(&app).await;
    send(&app, BIA, &text, None).await;
    let numbers = asked(&app, BIA, 0).await;
    tap(&app, BIA, &numbers, match_code(&started)).await;
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
    app.at_a_minute_s_start();
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
