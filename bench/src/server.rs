//! The real release binary, started on a free port with the bench's configuration, and its memory
//! read from `/proc`.

use std::{
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

use anyhow::{Context, bail};

/// The server's settings a bench run takes from its own environment, to compare them.
const TUNABLE: &[&str] = &[
    "LLM_MAX_CONCURRENCY",
    "WHATSAPP_SEND_CONCURRENCY",
    "SOCIO_WORKERS",
    "_RJEM_MALLOC_CONF",
    "TOKIO_WORKER_THREADS",
    "RUST_LOG",
];

pub struct Server {
    child: Child,
    pub address: String,
}

impl Server {
    /// The `socio` binary next to this one (both are built by `cargo build --release`).
    fn binary() -> anyhow::Result<PathBuf> {
        let me = std::env::current_exe()?;
        let binary = me.with_file_name("socio");
        if !binary.exists() {
            bail!("{} not found: build it with `cargo build --release`", binary.display());
        }
        Ok(binary)
    }

    pub async fn start(env: &[(&str, String)]) -> anyhow::Result<Self> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let mut command = Command::new(Self::binary()?);
        command
            .arg("serve")
            .env_clear()
            .env("SOCIO_ADDR", format!("127.0.0.1:{port}"))
            .env("SOCIO_WEB_DIR", "/nonexistent")
            .env("RUST_LOG", "error")
            // Every simulated client calls from this machine's one address.
            .env("HTTP_MAX_CONNECTIONS_PER_ADDRESS", "4096")
            .stdout(if std::env::var_os("RUST_LOG").is_some() { Stdio::inherit() } else { Stdio::null() })
            .stderr(Stdio::inherit());
        for (key, value) in env {
            command.env(key, value);
        }
        // The knobs one may turn to compare settings (`LLM_MAX_CONCURRENCY=64 make bench`) pass
        // through to the server; everything else is the bench's own.
        for key in TUNABLE {
            if let Ok(value) = std::env::var(key) {
                command.env(key, value);
            }
        }
        let child = command.spawn().context("starting the socio binary")?;
        let server = Self { child, address: format!("127.0.0.1:{port}") };
        let http = reqwest::Client::new();
        for _ in 0..300 {
            if http
                .get(format!("http://{}/readyz", server.address))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success())
            {
                return Ok(server);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        bail!("the server did not become ready in 15 s")
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server with SIGTERM and waits for it.
    pub fn stop(mut self) -> anyhow::Result<()> {
        Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status()?;
        self.child.wait()?;
        Ok(())
    }
}

/// A bench that fails half-way does not leave its server running.
impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Resident memory of a process in MiB (`VmRSS`), or its peak (`VmHWM`).
pub fn memory_mib(pid: u32, field: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
