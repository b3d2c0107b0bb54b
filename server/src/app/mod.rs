//! Builds the application on a bound listener and serves it until told to stop: one port for
//! native gRPC (h2c, with reflection and health), gRPC-Web, REST under `/api`, health probes and the
//! web app; job workers beside it; graceful shutdown of both.

mod router;
mod work;

use std::{future::Future, sync::Arc, time::Duration};

use anyhow::Context;
use tokio::net::TcpListener;

use crate::{
    billing::{cancellation::ProviderCancelHandler, expiry::ExpiryHandler, stripe::StripeClient},
    config::{Config, WhatsAppMode},
    connections,
    consultant::{
        engine::Engine,
        guide::Guide,
        llm::{LlmClient, Transcriber},
        memory::SummaryHandler,
        plan_delivery::PlanDocumentHandler,
        replies::Links,
        worker::ReplyHandler,
    },
    conversation::delivery::{NoticeHandler, SendHandler},
    db::{
        Db,
        jobs::{self, Backoff, Handlers, WorkerOptions},
    },
    identity::{phone::PhoneNumber, roles},
    plan::{Plans, events::PlanEvents},
    whatsapp::{
        cloud::CloudSender,
        media::MediaClient,
        outbox::DevOutbox,
        sender::{Measured, WhatsAppSender},
    },
};

use router::build_router;
use work::Workers;
/// The application, bound and ready to serve.
pub struct Application {
    listener: TcpListener,
    port: u16,
    config: Arc<Config>,
    db: Db,
    handlers: Handlers,
    worker_options: WorkerOptions,
    parts: Parts,
}

/// What the jobs and the router share.
struct Parts {
    sender: Arc<dyn WhatsAppSender>,
    plans: Plans,
    engine: Engine,
    stripe: Option<StripeClient>,
    /// The plan's PDF (fonts and template loaded once).
    renderer: Arc<crate::rendering::Renderer>,
    /// What the landing page may claim (the operator's testimonials, read at the start).
    proof: crate::proof::Proof,
}

impl Application {
    /// Binds `SOCIO_ADDR`, opens and migrates the database.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let listener = TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("cannot listen on {} (SOCIO_ADDR)", config.addr))?;
        Self::build_on(config, listener).await
    }

    /// Builds on an already bound listener (tests bind port 0).
    pub async fn build_on(config: Config, listener: TcpListener) -> anyhow::Result<Self> {
        let port = listener.local_addr()?.port();
        // A facts file replaces the built-in facts before anything reads one; a broken file stops
        // the start, naming the file and the problem.
        if let Some(path) = &config.facts_file {
            crate::facts::install(path).map_err(anyhow::Error::msg)?;
            tracing::info!(file = %path.display(), "business facts read from SOCIO_FACTS_FILE");
        }
        // The testimonials the landing page may quote: a broken file stops the start, naming it.
        let testimonials = match &config.testimonials_file {
            Some(path) => crate::proof::load_testimonials(path).map_err(anyhow::Error::msg)?,
            None => Vec::new(),
        };
        crate::telemetry::metrics::handle(); // the recorder, before anything is measured
        let db = Db::connect(&config.database_url).await?.with_clock(config.clock.clone());
        db.migrate().await?;
        grant_admin_phones(&db, &config.admin_phones).await?;
        crate::prompts::Prompts::new(db.clone()).seed_default().await?;
        crate::identity::directory::Directory::new(db.clone()).backfill_search_keys().await?;
        report_identity_conflicts(&db).await?;
        let sender: Arc<dyn WhatsAppSender> = Arc::new(Measured(match config.whatsapp.mode {
            WhatsAppMode::Dev => Arc::new(DevOutbox::new(db.clone())),
            WhatsAppMode::Cloud => Arc::new(CloudSender::new(&config.whatsapp)?),
        }));
        let links = Links::new(
            &config.public_url,
            crate::identity::links::LinkKeys::new(&config.jwt_secret),
            db.clock().clone(),
        );
        let events = PlanEvents::default();
        events.start_relay(db.clone()).await.context("cannot listen for plan changes on the database")?;
        let plans = Plans::new(db.clone(), events);
        plans.fill_section_flags().await?;
        let llm = config
            .llm
            .clone()
            .map(|c| LlmClient::new(c, config.jobs.model_calls, db.clock().clone()))
            .transpose()?;
        let voice = MediaClient::new(&config.whatsapp).zip(config.llm.as_ref().and_then(Transcriber::new));
        let guide = Guide::new(db.clone(), plans.clone(), links.clone());
        let engine = Engine::new(db.clone(), plans.clone(), guide, llm);
        // One Stripe client for the API, the webhook and the cancel jobs.
        let stripe = config.stripe.clone().map(StripeClient::new).transpose()?;
        let renderer = Arc::new(crate::rendering::Renderer::new());
        let handlers = Workers {
            reply: ReplyHandler::new(db.clone(), links.clone(), engine.clone(), voice, sender.clone()),
            send: SendHandler::new(db.clone(), sender.clone()),
            plan_document: PlanDocumentHandler::new(
                db.clone(),
                engine.clone(),
                renderer.clone(),
                sender.clone(),
            ),
            summary: SummaryHandler::new(db.clone(), engine.clone()),
            notice: NoticeHandler::new(db.clone()),
            expiry: ExpiryHandler::new(db.clone()),
            provider_cancel: ProviderCancelHandler::new(stripe.clone()),
        }
        .into_handlers(&config.jobs);
        let worker_options = WorkerOptions {
            workers: config.jobs.workers,
            backoff: Backoff { base: config.jobs.retry_base, ..Backoff::default() },
            lease: config.jobs.lease,
            ..WorkerOptions::default()
        };
        let proof = crate::proof::Proof::new(db.clone(), testimonials);
        Ok(Self {
            listener,
            port,
            config: Arc::new(config),
            db,
            handlers,
            worker_options,
            parts: Parts { sender, plans, engine, stripe, renderer, proof },
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Serves until `shutdown` completes, then lets in-flight requests and jobs finish.
    pub async fn run_until_stopped(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let router = build_router(&self.config, &self.db, self.handlers.kinds(), self.parts).await?;
        let (stop_workers, workers_stopped) = tokio::sync::watch::channel(false);
        let mut workers =
            jobs::spawn_workers(&self.db, self.handlers, self.worker_options, workers_stopped.clone());
        // The metrics' histograms folded into their buckets, scraped or not (`telemetry::metrics`).
        workers.spawn(crate::telemetry::metrics::keep_up(
            crate::telemetry::metrics::UPKEEP_EVERY,
            workers_stopped.clone(),
        ));
        // Used and ended refresh tokens deleted, so the table holds the live sessions' only.
        workers.spawn(
            crate::identity::sessions::Sweep::new(self.db.clone(), self.config.refresh_reuse_interval)
                .keep_on(crate::identity::sessions::SWEEP_EVERY, workers_stopped.clone()),
        );
        // The proactive messages people asked for, every minute (docs/business-plan.md, "Staying on track").
        if let Some(every) = self.config.jobs.reminders_every {
            workers.spawn(
                crate::conversation::proactive::Proactive::new(self.db.clone())
                    .schedule(every, workers_stopped),
            );
        }
        tracing::info!(port = self.port, database = ?self.db.engine(), "Sócio is serving");

        let served = connections::serve(
            self.listener,
            router,
            self.config.connections.clone(),
            self.config.trusted_proxies.clone(),
            shutdown,
            Duration::from_secs(10),
        )
        .await;

        let _ = stop_workers.send(true);
        if tokio::time::timeout(Duration::from_secs(30), async {
            while workers.join_next().await.is_some() {}
        })
        .await
        .is_err()
        {
            tracing::warn!("job workers did not stop in 30 s; their leases will hand the jobs on");
        }
        self.db.close().await;
        served.context("the server stopped with an error")
    }
}

/// Numbers in `ADMIN_PHONES` hold the admin role (registered if they never wrote to us).
async fn grant_admin_phones(db: &Db, phones: &[String]) -> anyhow::Result<()> {
    for phone in phones {
        let phone = PhoneNumber::parse(phone)
            .map_err(|_| anyhow::anyhow!("ADMIN_PHONES has an invalid number: {phone:?}"))?;
        roles::Roles::new(db.clone()).promote(&phone).await?;
    }
    Ok(())
}

/// Accounts that turned out to be one person (migration 0011) wait for an admin: said at every start.
async fn report_identity_conflicts(db: &Db) -> anyhow::Result<()> {
    for conflict in crate::identity::directory::Directory::new(db.clone()).identity_conflicts().await? {
        tracing::warn!(
            user = %conflict.user_id,
            kept_by = %conflict.kept_user_id,
            "two accounts are one person (a Brazilian mobile with and without its ninth digit): the number logs into the account that kept it; see docs/admin.md"
        );
    }
    Ok(())
}
