//! A person's messages answered together: a burst gets one reply that considers all of it, the
//! batch window restarts with each message (a slow typist gets one reply), and the batch cap
//! answers a person who never stops writing.

use crate::{
    fake_graph::{APP_SECRET, FakeGraph},
    helpers::{TestDatabase, spawn_app_with},
    on_both_engines,
    whatsapp::{ANA, text_delivery},
};

async fn a_burst_of_messages_gets_one_reply_that_considers_all_of_them(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    config.retain(|(k, _)| *k != "WHATSAPP_BATCH_WINDOW_MS");
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "700".into()));
    let app = spawn_app_with(db, &config).await;
    for (n, text) in ["Oi", "tudo bem?", "quero abrir uma padaria"].iter().enumerate() {
        let body = text_delivery(ANA, "Ana Lima", &format!("wamid.burst.{n}"), text);
        assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    }
    graph.wait_for_requests(1).await;
    app.drain_jobs().await;
    assert_eq!(graph.requests().len(), 1, "one reply for the burst");
    assert_eq!(app.count("select count(*) as n from messages where status = 'answered'").await, 3);
}
on_both_engines!(a_burst_of_messages_gets_one_reply_that_considers_all_of_them);

async fn the_batch_window_restarts_with_each_message_so_a_slow_typist_gets_one_reply(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    config.retain(|(k, _)| *k != "WHATSAPP_BATCH_WINDOW_MS");
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "400".into()));
    let app = spawn_app_with(db, &config).await;
    // Five messages 250 ms apart by the app's clock: over a second in all, each within the window
    // of the one before. Each commit wakes the workers, so a window that did not restart would be
    // due, and answered, before the next message.
    for n in 0..5 {
        let body = text_delivery(ANA, "Ana Lima", &format!("wamid.slow.{n}"), &format!("parte {n}"));
        assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
        app.db.clock().advance(250);
    }
    graph.wait_for_requests(1).await;
    app.drain_jobs().await;
    assert_eq!(graph.requests().len(), 1, "one reply once she stopped typing");
    assert_eq!(app.count("select count(*) as n from messages where status = 'answered'").await, 5);
}
on_both_engines!(the_batch_window_restarts_with_each_message_so_a_slow_typist_gets_one_reply);

async fn a_chatty_person_is_answered_by_the_batch_cap_even_while_still_writing(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    config.retain(|(k, _)| *k != "WHATSAPP_BATCH_WINDOW_MS");
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "400".into()));
    config.push(("WHATSAPP_BATCH_MAX_MS", "1000".into()));
    let app = spawn_app_with(db, &config).await;
    // She writes a message every 200 ms by the app's clock, each well within the window of the
    // one before, and stops once her reply is on its way (its job taken from the queue).
    let started = app.db.now_ms();
    let taken = || app.count("select count(*) as n from jobs where kind = 'reply' and status <> 'queued'");
    let mut n = 0;
    while taken().await == 0 {
        assert!(app.db.now_ms() - started < 3_000, "answered within the cap");
        let body = text_delivery(ANA, "Ana Lima", &format!("wamid.chatty.{n}"), "mais uma coisa");
        assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
        n += 1;
        app.db.clock().advance(200);
    }
    let waited = app.db.now_ms() - started;
    assert!(waited >= 1_000, "not before the cap: taken after {waited} ms and {n} messages");
    graph.wait_for_requests(1).await;
}
on_both_engines!(a_chatty_person_is_answered_by_the_batch_cap_even_while_still_writing);
