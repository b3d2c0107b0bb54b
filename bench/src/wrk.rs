//! The REST paths as an outside tool sees them: `wrk` (Debian's package), when it is on PATH,
//! drives the server from its own process with two threads — a lighter client than the bench's
//! own, whose cost on a two-core machine hid the server's (issue 46: the bench's client reported
//! `GetMe` at 0.51–0.56 of the ping where `wrk` measured 0.31–0.36). Its `--latency` report is
//! read back into an [`Outcome`]. The webhook is posted from a script of signed deliveries made
//! here, each from a new number, as Meta would send them.

use std::{path::Path, process::Command, time::Duration};

use anyhow::{Context, bail};

use crate::{deliveries, fakes::APP_SECRET, load::Outcome};

/// Whether `wrk` can be run here.
pub fn available() -> bool {
    Command::new("wrk").arg("--version").output().is_ok()
}

/// `GET url` with `token` (if any) from `connections` connections for `duration`.
pub async fn get(url: &str, token: &str, connections: usize, duration: Duration) -> anyhow::Result<Outcome> {
    let mut args = common(connections, duration);
    if !token.is_empty() {
        args.extend(["-H".into(), format!("Authorization: Bearer {token}")]);
    }
    args.push(url.to_owned());
    drive(args).await
}

/// Signed webhook deliveries, one message each from a new number (first contacts), posted to
/// `base`'s webhook for `duration`. `prefix` keeps the numbers and ids apart from other runs.
pub async fn webhook(
    base: &str,
    prefix: u32,
    connections: usize,
    duration: Duration,
    script_dir: &Path,
) -> anyhow::Result<Outcome> {
    let count = distinct_deliveries(duration);
    let mut script = String::from("local deliveries = {\n");
    for n in 0..count {
        let from = format!("55{prefix}9{n:08}");
        let body = deliveries::delivery(&[(
            from,
            format!("wamid.wrk.{prefix}.{n}"),
            "Oi! Quero abrir um negócio.".into(),
        )]);
        let signature = socio::whatsapp::signature::sign(APP_SECRET.as_bytes(), &body);
        let body = String::from_utf8(body).context("a delivery is JSON text")?;
        script.push_str(&format!("{{[==[{body}]==], \"{signature}\"}},\n"));
    }
    script.push_str(WEBHOOK_SCRIPT);
    std::fs::create_dir_all(script_dir)?;
    let path = script_dir.join(format!("webhook-{prefix}.lua"));
    std::fs::write(&path, script)?;
    let mut args = common(connections, duration);
    args.extend(["-s".into(), path.display().to_string(), format!("{base}/api/webhooks/whatsapp")]);
    drive(args).await
}

/// How many distinct deliveries the webhook's script holds: enough for ~4,000 a second; past them
/// it starts again, and the repeats are answered as duplicates (Meta's retries), which the figures
/// then include.
pub fn distinct_deliveries(duration: Duration) -> usize {
    4_000 * duration.as_secs().max(1) as usize
}

/// The rest of the webhook's script: each of wrk's threads takes every `threads`-th delivery, so
/// no two send the same one (wrk's scripting: `setup` runs per thread in the main state, `request`
/// in the thread's).
const WEBHOOK_SCRIPT: &str = r#"}
local threads = 0
function setup(thread)
  thread:set("id", threads)
  threads = threads + 1
end
local k = nil
function request()
  if k == nil then k = id end
  local d = deliveries[(k % #deliveries) + 1]
  k = k + 2
  return wrk.format("POST", nil, {["Content-Type"] = "application/json", ["X-Hub-Signature-256"] = d[2]}, d[1])
end
"#;

/// Two threads (this machine's cores), `connections` connections, the latency percentiles.
fn common(connections: usize, duration: Duration) -> Vec<String> {
    vec![
        "-t2".into(),
        format!("-c{connections}"),
        format!("-d{}s", duration.as_secs().max(1)),
        "--latency".into(),
    ]
}

async fn drive(args: Vec<String>) -> anyhow::Result<Outcome> {
    let output = tokio::task::spawn_blocking(move || Command::new("wrk").args(&args).output()).await??;
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        bail!("wrk failed: {}{}", text, String::from_utf8_lossy(&output.stderr));
    }
    parse(&text).with_context(|| format!("reading wrk's report:\n{text}"))
}

/// An [`Outcome`] from wrk's `--latency` report: requests/s, the 50% and 99% lines, and as
/// errors the non-2xx/3xx answers and socket errors.
pub fn parse(report: &str) -> anyhow::Result<Outcome> {
    let mut outcome = Outcome::default();
    let mut total = 0usize;
    for line in report.lines().map(str::trim) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["50%", latency] => outcome.p50_ms = millis(latency)?,
            ["99%", latency] => outcome.p99_ms = millis(latency)?,
            ["Requests/sec:", rate] => outcome.per_second = rate.parse()?,
            [requests, "requests", "in", ..] => total = requests.parse()?,
            ["Non-2xx", "or", "3xx", "responses:", n] => outcome.errors += n.parse::<usize>()?,
            ["Socket", "errors:", rest @ ..] => {
                outcome.errors +=
                    rest.iter().filter_map(|w| w.trim_end_matches(',').parse::<usize>().ok()).sum::<usize>();
            }
            _ => {}
        }
    }
    if total == 0 {
        bail!("no requests counted");
    }
    outcome.ok = total.saturating_sub(outcome.errors);
    // wrk's rate counts every answer; the errors are not throughput.
    outcome.per_second *= outcome.ok as f64 / total as f64;
    Ok(outcome)
}

/// wrk's latency ("812.00us", "1.23ms", "1.05s") in milliseconds.
fn millis(text: &str) -> anyhow::Result<f64> {
    let (number, scale) = if let Some(n) = text.strip_suffix("us") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000.0)
    } else {
        bail!("unknown latency unit in {text}");
    };
    Ok(number.parse::<f64>()? * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report in the form wrk 4.2 prints with `--latency`, socket errors and non-2xx answers included.
    const REPORT: &str = "Running 5s test @ http://127.0.0.1:8080/api/dashboard
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    17.93ms    6.02ms  61.25ms   71.48%
    Req/Sec     1.40k   102.37     1.63k    70.00%
  Latency Distribution
     50%   17.21ms
     75%   21.03ms
     90%   25.45ms
     99%   36.60ms
  13958 requests in 5.00s, 30.14MB read
  Non-2xx or 3xx responses: 8
  Socket errors: connect 0, read 2, write 0, timeout 0
Requests/sec:   2791.60
Transfer/sec:      6.03MB
";

    #[test]
    fn a_wrk_report_reads_as_rate_percentiles_and_errors() {
        let outcome = parse(REPORT).unwrap();
        assert_eq!(outcome.errors, 10);
        assert_eq!(outcome.ok, 13_948);
        assert!((outcome.p50_ms - 17.21).abs() < 1e-9);
        assert!((outcome.p99_ms - 36.60).abs() < 1e-9);
        assert!((outcome.per_second - 2791.60 * 13_948.0 / 13_958.0).abs() < 1e-6);
    }

    #[test]
    fn latencies_in_every_unit_read_as_milliseconds() {
        assert!((millis("812.00us").unwrap() - 0.812).abs() < 1e-9);
        assert!((millis("1.05s").unwrap() - 1050.0).abs() < 1e-9);
        assert!(millis("3.0m").is_err());
    }

    #[test]
    fn a_report_without_requests_is_an_error() {
        assert!(parse("unable to connect to 127.0.0.1:1 Connection refused").is_err());
    }
}
