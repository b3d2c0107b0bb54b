//! Accepting and keeping HTTP connections (HTTP/1.1 and HTTP/2, cleartext; TLS ends at the
//! balancer) so that sockets which say nothing cannot wear the server down: a connection must send
//! its first bytes, a request its headers and its body, each within a time limit; an HTTP/2 peer is
//! pinged and dropped when it stops answering; a connection with no request in flight for a while
//! is closed, while one carrying a live stream stays open as long as the stream does; connections
//! are capped in all and per client address (a trusted balancer excepted), and streams per HTTP/2
//! connection; accept errors (out of descriptors) back off instead of spinning. [`raise_open_files`]
//! lifts the process's descriptor limit to what the system allows.

use std::{
    collections::HashMap,
    convert::Infallible,
    future::Future,
    net::{IpAddr, SocketAddr},
    pin::Pin,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, AtomicUsize, Ordering},
    },
    task::{Context, Poll},
    time::{Duration, Instant},
};

use bytes::Bytes;
use http::Request;
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::conn::auto,
    service::TowerToHyperService,
};
use ipnet::IpNet;
use tokio::{net::TcpListener, sync::watch, task::JoinSet};
use tonic::transport::server::TcpConnectInfo;
use tower::ServiceExt;

use crate::telemetry::throttle::LogThrottle;

/// How long a connection closed for idleness may take to say goodbye before it is dropped.
const IDLE_CLOSE_GRACE: Duration = Duration::from_secs(1);

/// The limits (docs/api.md, Security, lists them with their defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// A new connection must send its first bytes within this.
    pub first_bytes: Duration,
    /// An HTTP/1 request must send its whole header within this.
    pub headers: Duration,
    /// A request must send its whole body within this (responses may stream for as long as they live).
    pub body: Duration,
    /// A connection with no request in flight for this long is closed.
    pub idle: Duration,
    /// HTTP/2 peers are pinged this often, and dropped when a ping is not answered in as long.
    pub keep_alive: Duration,
    pub max_connections: usize,
    /// Per client address; a trusted balancer's addresses are not counted.
    pub max_per_address: usize,
    pub max_streams_per_connection: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            first_bytes: Duration::from_secs(10),
            headers: Duration::from_secs(10),
            body: Duration::from_secs(30),
            idle: Duration::from_secs(120),
            keep_alive: Duration::from_secs(20),
            max_connections: 10_000,
            max_per_address: 512,
            max_streams_per_connection: 128,
        }
    }
}

/// Raises the soft limit of open files to the hard limit, so that the caps above, not the
/// system's default of 1,024 (or less), decide how many connections the process holds. Returns
/// the limit now in force.
pub fn raise_open_files() -> std::io::Result<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed to them.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            limit = raised;
        }
    }
    Ok(limit.rlim_cur)
}

/// Serves `router` on `listener` until `shutdown` completes, then lets requests in flight finish
/// (for at most `grace`) and closes what is left.
pub async fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: Limits,
    trusted: Vec<IpNet>,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<()> {
    let limits = Arc::new(limits);
    let per_address = AddressCounts::default();
    let open = Arc::new(AtomicUsize::new(0));
    let (stop, stopping) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut backoff = Duration::ZERO;
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => {
                backoff = Duration::ZERO;
                accepted
            }
            Err(error) => {
                // Out of descriptors (EMFILE, ENFILE) or memory: the error repeats at once, so wait
                // for connections to close instead of spinning on accept.
                backoff = (backoff * 2).clamp(Duration::from_millis(10), Duration::from_secs(1));
                tracing::warn!(%error, wait = ?backoff, "accepting a connection failed; backing off");
                tokio::time::sleep(backoff).await;
                continue;
            }
        };
        let Some(slot) = Slot::take(&open, &per_address, &trusted, peer, &limits) else {
            drop(stream); // over a cap: closed at once
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (router, limits, stopping) = (router.clone(), limits.clone(), stopping.clone());
        connections.spawn(async move {
            let _slot = slot;
            serve_connection(stream, router, &limits, stopping).await;
        });
    }
    let _ = stop.send(true);
    if tokio::time::timeout(grace, async { while connections.join_next().await.is_some() {} }).await.is_err()
    {
        tracing::warn!(left = connections.len(), "connections still busy after the grace period are closed");
        connections.shutdown().await;
    }
    Ok(())
}

/// Refused connections are logged once per address (None: the server's maximum) every 10 s, with
/// the count of those left out: one address over its cap for 15 s writes two lines, not 16,000.
static REFUSALS_LOGGED: std::sync::LazyLock<LogThrottle<Option<IpAddr>>> =
    std::sync::LazyLock::new(|| LogThrottle::new(Duration::from_secs(10)));

/// Open connections per client address.
type AddressCounts = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// A connection's place under the caps, given back when it closes.
struct Slot {
    open: Arc<AtomicUsize>,
    per_address: Option<(AddressCounts, IpAddr)>,
}

impl Slot {
    fn take(
        open: &Arc<AtomicUsize>,
        per_address: &AddressCounts,
        trusted: &[IpNet],
        peer: SocketAddr,
        limits: &Limits,
    ) -> Option<Self> {
        if open.fetch_add(1, Ordering::AcqRel) >= limits.max_connections {
            open.fetch_sub(1, Ordering::AcqRel);
            if let Some(left_out) = REFUSALS_LOGGED.admit(&None, monotonic_ms()) {
                tracing::warn!(
                    max = limits.max_connections,
                    refused_since_last_line = left_out,
                    "connection refused: the server holds its maximum"
                );
            }
            return None;
        }
        let mut slot = Slot { open: open.clone(), per_address: None };
        let ip = peer.ip();
        if !trusted.iter().any(|net| net.contains(&ip)) {
            let mut counts = per_address.lock().expect("the address counts are never poisoned");
            let count = counts.entry(ip).or_default();
            if *count >= limits.max_per_address {
                if let Some(left_out) = REFUSALS_LOGGED.admit(&Some(ip), monotonic_ms()) {
                    tracing::warn!(target: "security", event = "connections_per_address", address = %ip, refused_since_last_line = left_out, "connection refused: too many from one address");
                }
                return None; // dropping `slot` gives the place back
            }
            *count += 1;
            slot.per_address = Some((per_address.clone(), ip));
        }
        Some(slot)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::AcqRel);
        if let Some((counts, ip)) = &self.per_address {
            let mut counts = counts.lock().expect("the address counts are never poisoned");
            if let Some(count) = counts.get_mut(ip) {
                *count -= 1;
                if *count == 0 {
                    counts.remove(ip);
                }
            }
        }
    }
}

async fn serve_connection(
    stream: tokio::net::TcpStream,
    router: axum::Router,
    limits: &Limits,
    mut stopping: watch::Receiver<bool>,
) {
    // Whatever the protocol, a client sends first: one that does not is closed.
    let mut first = [0u8; 1];
    match tokio::time::timeout(limits.first_bytes, stream.peek(&mut first)).await {
        Ok(Ok(n)) if n > 0 => {}
        _ => return,
    }
    let activity = Arc::new(Activity::new());
    // Who is at the other end, where tonic's own server would say it (`Request::remote_addr`).
    let peer = TcpConnectInfo { local_addr: stream.local_addr().ok(), remote_addr: stream.peer_addr().ok() };
    let service = {
        let (activity, body_limit) = (activity.clone(), limits.body);
        tower::service_fn(move |request: Request<Incoming>| {
            let (router, activity, peer) = (router.clone(), activity.clone(), peer.clone());
            async move {
                let busy = Busy::start(activity);
                let mut request = request.map(|body| DeadlineBody::new(body, body_limit));
                request.extensions_mut().insert(peer);
                let response = match router.oneshot(request).await {
                    Ok(response) => response,
                    Err(never) => match never {},
                };
                Ok::<_, Infallible>(response.map(|body| Tracked { inner: body, _busy: busy }))
            }
        })
    };
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.headers).keep_alive(true);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(limits.keep_alive))
        .keep_alive_timeout(limits.keep_alive)
        .max_concurrent_streams(limits.max_streams_per_connection);
    let connection =
        builder.serve_connection_with_upgrades(TokioIo::new(stream), TowerToHyperService::new(service));
    tokio::pin!(connection);
    let mut closing = false;
    // Closing an idle HTTP/2 connection politely waits for the peer to answer a ping; one that
    // does not is dropped after this (nothing is in flight on it to lose).
    let mut dropping_at: Option<tokio::time::Instant> = None;
    loop {
        // Wake when the connection would have been quiet for the whole idle limit.
        let wait = activity.idle_for().map_or(limits.idle, |idle| limits.idle.saturating_sub(idle));
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(error) = result {
                    tracing::debug!(%error, "a connection ended with an error");
                }
                return;
            }
            _ = stopping.changed(), if !closing => {
                connection.as_mut().graceful_shutdown();
                closing = true;
            }
            () = tokio::time::sleep(wait), if !closing => {
                if activity.idle_for().is_some_and(|idle| idle >= limits.idle) {
                    connection.as_mut().graceful_shutdown();
                    closing = true;
                    dropping_at = Some(tokio::time::Instant::now() + limits.idle.min(IDLE_CLOSE_GRACE));
                }
            }
            () = tokio::time::sleep_until(dropping_at.unwrap_or_else(tokio::time::Instant::now)), if dropping_at.is_some() => {
                if activity.idle_for().is_some() {
                    return; // still nothing in flight: drop it
                }
                dropping_at = None; // a request came in meanwhile: let it finish
            }
        }
    }
}

/// Requests in flight on a connection, and when the last one ended.
struct Activity {
    in_flight: AtomicUsize,
    /// Milliseconds since `EPOCH` when the connection last went quiet (or opened).
    quiet_since: AtomicU64,
}

static EPOCH: std::sync::LazyLock<Instant> = std::sync::LazyLock::new(Instant::now);

/// Milliseconds on a monotonic clock since the process first asked: durations, not instants.
pub fn monotonic_ms() -> u64 {
    EPOCH.elapsed().as_millis() as u64
}

impl Activity {
    fn new() -> Self {
        Self { in_flight: AtomicUsize::new(0), quiet_since: AtomicU64::new(monotonic_ms()) }
    }

    /// How long nothing has been in flight; None while something is.
    fn idle_for(&self) -> Option<Duration> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        Some(Duration::from_millis(monotonic_ms().saturating_sub(self.quiet_since.load(Ordering::Acquire))))
    }
}

/// A request in flight, until its response body has been sent (a stream counts while it lives).
struct Busy(Arc<Activity>);

impl Busy {
    fn start(activity: Arc<Activity>) -> Self {
        activity.in_flight.fetch_add(1, Ordering::AcqRel);
        Busy(activity)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.quiet_since.store(monotonic_ms(), Ordering::Release);
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

pin_project_lite::pin_project! {
    /// A response body that keeps its request counted as in flight until it ends or is dropped.
    struct Tracked<B> {
        #[pin]
        inner: B,
        _busy: Busy,
    }
}

impl<B: Body> Body for Tracked<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        self.project().inner.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The request body did not arrive in time.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?}")]
pub struct BodyTimedOut(Duration);

pin_project_lite::pin_project! {
    /// A request body that must arrive whole before its deadline: a client trickling it (or
    /// sending fewer bytes than it declared) gets an error, and its connection is freed.
    struct DeadlineBody {
        #[pin]
        inner: Incoming,
        #[pin]
        deadline: tokio::time::Sleep,
        limit: Duration,
    }
}

impl DeadlineBody {
    fn new(inner: Incoming, limit: Duration) -> Self {
        Self { inner, deadline: tokio::time::sleep(limit), limit }
    }
}

impl Body for DeadlineBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.project();
        if let Poll::Ready(frame) = this.inner.poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        match this.deadline.poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimedOut(*this.limit))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
