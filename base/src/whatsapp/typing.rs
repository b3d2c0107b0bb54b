//! "Typing…" while an answer is being composed: shown when the work on a person's messages starts
//! and shown again every 20 s while it goes on (WhatsApp hides it after about 25 s, Meta's "Typing
//! indicators" page). It runs beside the work and never holds it up: a failure is logged, not
//! retried, and the indicator stops when the guard is dropped.

use std::{sync::Arc, time::Duration};

use super::sender::WhatsAppSender;

/// How often the indicator is shown again while the work goes on.
pub const REFRESH: Duration = Duration::from_secs(20);

/// Keeps the indicator up until dropped.
pub struct Typing(tokio::task::JoinHandle<()>);

impl Drop for Typing {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Shows "typing…" to `to` (digits) for their message `wa_message_id` now — that request goes
/// out even when the answer is ready first: it also marks the message read — and again every
/// `refresh` until the guard is dropped.
pub fn start(
    sender: Arc<dyn WhatsAppSender>,
    to: String,
    wa_message_id: String,
    refresh: Duration,
) -> Typing {
    let show = move || {
        let (sender, to, wa_message_id) = (sender.clone(), to.clone(), wa_message_id.clone());
        async move {
            match tokio::time::timeout(Duration::from_secs(5), sender.show_typing(&to, &wa_message_id)).await
            {
                Ok(Ok(())) => {}
                Ok(Err(err)) => tracing::debug!(error = %err, "the typing indicator was not shown"),
                Err(_) => tracing::debug!("the typing indicator took too long"),
            }
        }
    };
    tokio::spawn(show());
    Typing(tokio::spawn(async move {
        loop {
            tokio::time::sleep(refresh).await;
            show().await;
        }
    }))
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use futures::future::BoxFuture;

    use super::*;
    use crate::whatsapp::sender::{Outgoing, SendError, Sent};

    #[derive(Default)]
    struct Counting(Mutex<Vec<tokio::time::Instant>>);

    impl WhatsAppSender for Counting {
        fn send<'a>(&'a self, _: &'a Outgoing) -> BoxFuture<'a, Result<Sent, SendError>> {
            unreachable!("only typing here")
        }
        fn show_typing<'a>(&'a self, _: &'a str, _: &'a str) -> BoxFuture<'a, Result<(), SendError>> {
            self.0.lock().unwrap().push(tokio::time::Instant::now());
            Box::pin(async { Err(SendError::Retryable("Meta is down".into())) })
        }
    }

    #[tokio::test(start_paused = true)]
    async fn the_indicator_is_shown_at_once_again_every_twenty_seconds_and_stops_with_the_work() {
        let sender = Arc::new(Counting::default());
        let started = tokio::time::Instant::now();
        let typing = start(sender.clone(), "5511987654321".into(), "wamid.1".into(), REFRESH);
        tokio::time::sleep(Duration::from_secs(45)).await;
        drop(typing);
        tokio::time::sleep(Duration::from_secs(60)).await;
        let shown: Vec<u64> = sender.0.lock().unwrap().iter().map(|at| (*at - started).as_secs()).collect();
        assert_eq!(shown, vec![0, 20, 40], "failures change nothing; nothing after the work ended");
    }
}
