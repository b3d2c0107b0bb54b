//! `socio-bench`: the instrument behind `make bench`. `seed` fills a database with a realistic data
//! set in bulk; `run` seeds fresh databases, starts the real release binary against each engine with
//! local fakes of the Graph API and the LLM, drives it at a fixed concurrency over gRPC, REST and the
//! signed webhook, and prints one table (and `target/bench/results.json`) with every figure beside
//! its baseline from the same run.

mod costs;
mod crowd;
mod deliveries;
mod eval;
mod fakes;
mod load;
mod report;
mod run;
mod seed;
mod server;
mod setup;
mod wrk;

use std::time::Duration;

use anyhow::{Context, bail};

const USAGE: &str = "usage:
  socio-bench seed --database-url URL [--users N] [--messages N]
  socio-bench run [--engines sqlite,postgres] [--concurrency N] [--seconds N] [--people N] [--out FILE]
  socio-bench crowd [--engines sqlite,postgres] [--people N]   (the crowd scenario alone; 1,000 people unless told)
  socio-bench pipeline [--engines sqlite,postgres]   (the reply pipeline alone, a message at a time)
  socio-bench eval [--require-perfect true]       (the consultant's quality harness: LLM_BASE_URL, else a scripted model)
                  (PostgreSQL at BENCH_POSTGRES_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)";

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        bail!("{USAGE}");
    };
    let flags = Flags::parse(rest)?;
    match command.as_str() {
        "seed" => {
            let url = flags.get("database-url").context("--database-url is required")?;
            let size = seed::Size {
                users: flags.number("users", seed::Size::default().users)?,
                messages: flags.number("messages", seed::Size::default().messages)?,
            };
            let db = socio::db::Db::connect(url).await?;
            db.migrate().await?;
            let took = seed::seed(&db, size).await?;
            println!(
                "seeded {} users, {} messages and their plans in {:.1} s",
                size.users,
                size.messages,
                took.as_secs_f64()
            );
            Ok(())
        }
        "eval" => eval::eval(flags.get("require-perfect") == Some("true")).await,
        "run" | "crowd" | "pipeline" => {
            let options = setup::Options {
                engines: flags
                    .get("engines")
                    .unwrap_or("sqlite,postgres")
                    .split(',')
                    .map(str::to_owned)
                    .collect(),
                concurrency: flags.number("concurrency", 50)?,
                people: flags.number("people", crowd::Setup::default().people)?,
                duration: Duration::from_secs(flags.number("seconds", 5)? as u64),
                out: flags.get("out").unwrap_or("target/bench/results.json").into(),
                postgres_url: std::env::var("BENCH_POSTGRES_URL")
                    .or_else(|_| std::env::var("TEST_DATABASE_URL"))
                    .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into()),
            };
            match command.as_str() {
                "crowd" => run::crowd_only(options).await,
                "pipeline" => run::pipeline_only(options).await,
                _ => run::run(options).await,
            }
        }
        _ => bail!("{USAGE}"),
    }
}

/// `--name value` pairs.
struct Flags(Vec<(String, String)>);

impl Flags {
    fn parse(args: &[String]) -> anyhow::Result<Self> {
        let mut pairs = Vec::new();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let name =
                arg.strip_prefix("--").with_context(|| format!("unexpected argument {arg}\n{USAGE}"))?;
            let value = it.next().with_context(|| format!("--{name} needs a value"))?;
            pairs.push((name.to_owned(), value.clone()));
        }
        Ok(Self(pairs))
    }
    fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
    fn number(&self, name: &str, default: usize) -> anyhow::Result<usize> {
        self.get(name)
            .map_or(Ok(default), |v| v.parse().with_context(|| format!("--{name} must be a number")))
    }
}
