//! A person's messages answered together: a burst gets one reply that considers all of it, the
//! batch window restarts with each message (a slow typist gets one reply), and the batch cap
//! answers a person who never stops writing.

use crate::{
    fake_graph::{APP_SECRET, FakeGraph},
    helpers::{TestDatabase, eventually, spawn_app_with},
    on_both_engines,
    whatsapp::{ANA, text_delivery},
};

async fn a_burst_of_messages_gets_one_reply_that_considers_all_of_them(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    config.retain(|(k, _)| *k != "WHATSAPP_BATCH_WINDOW_MS");
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "700".into()));
    let app = spawn_app_with(db, &config).await;
    // The app's clock stands still while she writes: however slow the machine, the three arrive
    // within the window; it falls due when the test moves the clock past it.
    app.db.clock().pause();
    for (n, text) in ["Oi", "tudo bem?", "quero abrir uma padaria"].iter().enumerate() {
        let body = text_delivery(ANA, "Ana Lima", &format!("wamid.burst.{n}"), text);
        assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
    }
    app.db.clock().advance(700);
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
    // Five messages 250 ms apart by the app's clock, which moves only when the test moves it:
    // over a second in all, each within the window of the one before. Moving the clock wakes the
    // workers, so a window that did not restart would be due, and answered, before the next message.
    app.db.clock().pause();
    for n in 0..5 {
        let body = text_delivery(ANA, "Ana Lima", &format!("wamid.slow.{n}"), &format!("parte {n}"));
        assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
        app.db.clock().advance(250);
    }
    // She stops typing: a whole window later her messages are due.
    app.db.clock().advance(400);
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
    // She writes a message every 200 ms by the app's clock (which moves only when the test moves
    // it), each well within the window of the one before: after her fifth the clock reads a
    // second on, the cap. Nothing is taken before it; at it her reply goes, though her last
    // message is only 200 ms old (without the cap it would wait for the clock to reach 1,200).
    app.db.clock().pause();
    let started = app.db.now_ms();
    let taken = || app.count("select count(*) as n from jobs where kind = 'reply' and status <> 'queued'");
    for n in 0..5 {
        assert_eq!(taken().await, 0, "not before the cap: taken after {n} messages");
        let body = text_delivery(ANA, "Ana Lima", &format!("wamid.chatty.{n}"), "mais uma coisa");
        assert_eq!(app.post_whatsapp_webhook(&body, Some(APP_SECRET)).await, 200);
        app.db.clock().advance(200);
    }
    assert_eq!(app.db.now_ms() - started, 1_000);
    eventually("her reply is on its way at the cap, while she is still writing", || async {
        taken().await > 0
    })
    .await;
    graph.wait_for_requests(1).await;
}
on_both_engines!(a_chatty_person_is_answered_by_the_batch_cap_even_while_still_writing);
