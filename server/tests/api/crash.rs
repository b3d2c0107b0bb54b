//! The real binary, killed and restarted: an acknowledged WhatsApp message is never lost and its
//! reply is sent exactly once; SIGTERM stops the server gracefully.

use std::process::{Child, Command, Stdio};

use socio::db::Db;

use crate::{
    fake_graph::{APP_SECRET, FakeGraph},
    helpers::{TestDatabase, drain_jobs, eventually, fixture},
    on_both_engines,
};

pub struct Server {
    pub child: Child,
    pub address: String,
}

/// A test that fails half-way must not leave its server running.
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub async fn start(db: &TestDatabase, extra: &[(&'static str, String)]) -> Server {
    start_with_open_files(db, extra, None).await
}

/// The binary with its open-file limit (soft and hard) held to `open_files`, when given.
pub async fn start_with_open_files(
    db: &TestDatabase,
    extra: &[(&'static str, String)],
    open_files: Option<u64>,
) -> Server {
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let mut command = Command::new(env!("CARGO_BIN_EXE_socio"));
    command
        .arg("serve")
        .env_clear()
        .env("SOCIO_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", &db.url)
        .env("JWT_SECRET", "crash-test-secret-that-is-long-enough-0123")
        .env("SOCIO_WEB_DIR", "/nonexistent")
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    for (key, value) in extra {
        command.env(key, value);
    }
    if let Some(limit) = open_files {
        use std::os::unix::process::CommandExt;
        let limit = libc::rlimit { rlim_cur: limit as libc::rlim_t, rlim_max: limit as libc::rlim_t };
        // SAFETY: setrlimit is async-signal-safe and touches only the child being started.
        unsafe {
            command.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    let child = command.spawn().expect("the socio binary starts");
    let address = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    eventually("the binary serves", || {
        let (http, url) = (http.clone(), format!("{address}/healthz"));
        async move { http.get(url).send().await.is_ok() }
    })
    .await;
    Server { child, address }
}

pub async fn post_signed(address: &str, body: &[u8]) -> u16 {
    reqwest::Client::new()
        .post(format!("{address}/api/webhooks/whatsapp"))
        .header("x-hub-signature-256", socio::whatsapp::signature::sign(APP_SECRET.as_bytes(), body))
        .body(body.to_vec())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn a_server_killed_right_after_acknowledging_replies_exactly_once_after_restart(db: TestDatabase) {
    let graph = FakeGraph::start().await;
    let mut config = graph.cloud_config();
    config.retain(|(k, _)| *k != "WHATSAPP_BATCH_WINDOW_MS");
    config.push(("WHATSAPP_BATCH_WINDOW_MS", "1500".into()));

    let mut first = start(&db, &config).await;
    assert_eq!(post_signed(&first.address, &fixture("whatsapp/inbound-text.json")).await, 200);
    first.child.kill().expect("SIGKILL");
    first.child.wait().unwrap();
    assert!(graph.requests().is_empty(), "killed before replying");

    let mut second = start(&db, &config).await;
    graph.wait_for_requests(1).await;
    drain_jobs(&Db::connect(&db.url).await.unwrap()).await;
    assert_eq!(graph.requests().len(), 1, "the reply is sent exactly once");
    assert!(graph.requests()[0].body["text"]["body"].as_str().unwrap().contains("Ana"));
    second.child.kill().unwrap();
    second.child.wait().unwrap();
}
on_both_engines!(a_server_killed_right_after_acknowledging_replies_exactly_once_after_restart);

async fn sigterm_stops_the_server_gracefully(db: TestDatabase) {
    let mut server = start(&db, &[]).await;
    let pid = server.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let mut status = None;
    eventually("the server stops within ten seconds of SIGTERM", || {
        status = status.or(server.child.try_wait().unwrap());
        let stopped = status.is_some();
        async move { stopped }
    })
    .await;
    let status = status.unwrap();
    assert!(status.success(), "a clean exit: {status:?}");
}
on_both_engines!(sigterm_stops_the_server_gracefully);
