//! Builds the application on a bound listener and serves it until told to stop: one port for
//! native gRPC (h2c, with reflection and health), gRPC-Web, REST under `/api`, health probes and the
//! web app; job workers beside it; graceful shutdown of both.

use std::{future::Future, sync::Arc, time::Duration};

use anyhow::Context;
use axum::{extract::Request, routing::get};
use http::{HeaderName, HeaderValue, Method, header};
use tokio::net::TcpListener;
use tonic::service::Routes;
use tower_http::{
    cors::{AllowOrigin, CorsLayer},
    trace::TraceLayer,
};

use crate::{
    api::{
        admin::AdminApi,
        auth::AuthApi,
        billing::BillingApi,
        business_plan::BusinessPlanApi,
        consultant::ConsultantApi,
        dashboard::DashboardApi,
        dev::{self, DevWhatsApp},
        edge::EdgeLayer,
        export::Exports,
        handoff::HandoffApi,
        health,
        landing::LandingApi,
        rest::{Rest, openapi, routes::RouteTable},
        system_prompts::SystemPromptApi,
        web::WebApp,
        webhooks::{self, StripeWebhook, WhatsAppWebhook},
    },
    billing::{
        cancellation::ProviderCancelHandler,
        expiry::ExpiryHandler,
        stripe::StripeClient,
        subscriptions::{ExpiryJob, ProviderCancelJob},
    },
    config::{Config, RunMode, WhatsAppMode},
    connections,
    consultant::{
        engine::Engine,
        guide::Guide,
        llm::{LlmClient, Transcriber},
        memory::SummaryHandler,
        plan_delivery::PlanDocumentHandler,
        plan_request::PlanDocumentJob,
        replies::Links,
        worker::ReplyHandler,
    },
    conversation::{
        delivery::{NoticeHandler, SendHandler, SendJob},
        inbox::{Inbox, ReplyJob},
        summaries::SummaryJob,
    },
    db::{
        Db,
        jobs::{self, Backoff, Batching, Handlers, JobPayload, WorkerOptions},
    },
    identity::{
        caller::Authenticator, codes::CodeHasher, login::Login, phone::PhoneNumber, roles,
        sessions::TokenKeys,
    },
    plan::{Plans, events::PlanEvents},
    proto::{
        DESCRIPTOR_SET, descriptor_pool,
        socio::v1::{
            account_service_server::AccountServiceServer, admin_service_server::AdminServiceServer,
            auth_service_server::AuthServiceServer, billing_service_server::BillingServiceServer,
            business_plan_service_server::BusinessPlanServiceServer,
            consultant_service_server::ConsultantServiceServer,
            dashboard_service_server::DashboardServiceServer, handoff_service_server::HandoffServiceServer,
            landing_service_server::LandingServiceServer, results_service_server::ResultsServiceServer,
            system_prompt_service_server::SystemPromptServiceServer,
        },
    },
    whatsapp::{
        cloud::CloudSender,
        media::MediaClient,
        notices::NoticeJob,
        outbox::DevOutbox,
        sender::{Measured, WhatsAppSender},
    },
};

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
        crate::telemetry::metrics::handle(); // the recorder, before anything is measured
        let db = Db::connect(&config.database_url).await?.with_clock(config.clock.clone());
        db.migrate().await?;
        grant_admin_phones(&db, &config.admin_phones).await?;
        crate::prompts::seed_default(&db).await?;
        crate::identity::directory::backfill_search_keys(&db).await?;
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
        let llm = config.llm.clone().map(|c| LlmClient::new(c, config.jobs.model_calls)).transpose()?;
        let voice = MediaClient::new(&config.whatsapp).zip(config.llm.as_ref().and_then(Transcriber::new));
        let guide = Guide::new(db.clone(), plans.clone(), links.clone());
        let engine = Engine::new(db.clone(), plans.clone(), guide, llm);
        // One Stripe client for the API, the webhook and the cancel jobs.
        let stripe = config.stripe.clone().map(StripeClient::new).transpose()?;
        let renderer = Arc::new(crate::rendering::Renderer::new());
        let handlers = Handlers::new()
            .register_in_lane(
                ReplyJob::KIND,
                Arc::new(ReplyHandler::new(db.clone(), links.clone(), engine.clone(), voice, sender.clone())),
                config.jobs.model_calls,
            )
            .register_in_lane(
                SendJob::KIND,
                Arc::new(SendHandler::new(db.clone(), sender.clone())),
                config.jobs.sends,
            )
            .register(
                PlanDocumentJob::KIND,
                Arc::new(PlanDocumentHandler::new(
                    db.clone(),
                    engine.clone(),
                    renderer.clone(),
                    sender.clone(),
                )),
            )
            .register(SummaryJob::KIND, Arc::new(SummaryHandler::new(db.clone(), engine.clone())))
            .register(NoticeJob::KIND, Arc::new(NoticeHandler::new(db.clone())))
            .register(ExpiryJob::KIND, Arc::new(ExpiryHandler::new(db.clone())))
            .register(ProviderCancelJob::KIND, Arc::new(ProviderCancelHandler::new(stripe.clone())));
        let worker_options = WorkerOptions {
            workers: config.jobs.workers,
            backoff: Backoff { base: config.jobs.retry_base, ..Backoff::default() },
            lease: config.jobs.lease,
            ..WorkerOptions::default()
        };
        Ok(Self {
            listener,
            port,
            config: Arc::new(config),
            db,
            handlers,
            worker_options,
            parts: Parts { sender, plans, engine, stripe, renderer },
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
        // The proactive messages people asked for, every minute (README, "Staying on track").
        if let Some(every) = self.config.jobs.reminders_every {
            workers.spawn(crate::conversation::reminders::schedule(self.db.clone(), every, workers_stopped));
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
        let mut tx = db.begin().await?;
        roles::ensure_admin(&mut tx, &phone).await?;
        tx.commit().await?;
    }
    Ok(())
}

/// Accounts that turned out to be one person (migration 0011) wait for an admin: said at every start.
async fn report_identity_conflicts(db: &Db) -> anyhow::Result<()> {
    for conflict in crate::identity::directory::identity_conflicts(db).await? {
        tracing::warn!(
            user = %conflict.user_id,
            kept_by = %conflict.kept_user_id,
            "two accounts are one person (a Brazilian mobile with and without its ninth digit): the number logs into the account that kept it; see README, Administration"
        );
    }
    Ok(())
}

/// Every protocol on one router.
async fn build_router(
    config: &Config,
    db: &Db,
    job_kinds: Vec<&'static str>,
    parts: Parts,
) -> anyhow::Result<axum::Router> {
    let keys = TokenKeys::new(&config.jwt_secret, db.clock().clone());
    let sessions = crate::identity::live::LiveSessions::start(db.clone())
        .await
        .context("cannot listen for session changes on the database")?;
    // Admin views of a conversation hear its changes from every server.
    db.relay(crate::conversation::updates::CHANNEL)
        .await
        .context("cannot listen for conversation changes on the database")?;
    let auth = Authenticator::new(sessions, keys.clone());
    let exports = Exports::new(db.clone(), parts.plans.clone(), &config.jwt_secret, &config.public_url);
    let callbacks = callbacks(config, db, parts.stripe.clone());
    let grpc = with_health_and_reflection(contracts(config, db, &auth, keys, &exports, parts)).await?;

    let table = RouteTable::from_pool(descriptor_pool(), "socio.v1")?;
    let openapi = bytes::Bytes::from(serde_json::to_vec(&openapi::document(&table))?);
    // Every service behind the one edge (authentication and the request's language), which REST
    // reaches in process and gRPC-Web through its translation.
    let services = grpc.into_axum_router().layer(EdgeLayer::new(auth));
    let rest = Rest::new(table, services.clone());
    let web = WebApp::new(&config.web_dir);
    let export_routes = axum::Router::new()
        .route("/api/admin/exports/{user_id}", get(crate::api::export::download))
        .with_state(exports);
    let ready_db = db.clone();

    // gRPC-Web is layered on the gRPC routes only: tonic-web refuses every other HTTP/1 request.
    let router = services
        .layer(tonic_web::GrpcWebLayer::new())
        .layer(axum::middleware::from_fn(crate::api::edge::tag_protocol))
        .route("/healthz", get(health::healthz))
        .route(
            "/api/openapi.json",
            get(move || {
                let body = openapi.clone();
                async move { ([(http::header::CONTENT_TYPE, "application/json")], body) }
            }),
        )
        .route("/readyz", get(move || health::readyz(axum::extract::State(ready_db.clone()))))
        .route(
            "/metrics",
            get(health::metrics).with_state(health::MetricsAccess {
                db: db.clone(),
                kinds: Arc::from(job_kinds),
                token: config.metrics_token.clone(),
                open: !config.is_production(),
            }),
        )
        .merge(callbacks)
        .merge(export_routes)
        .fallback(move |request: Request| {
            let rest = rest.clone();
            let web = web.clone();
            async move {
                let path = request.uri().path();
                if path == "/api" || path.starts_with("/api/") {
                    rest.handle(request).await
                } else {
                    web.serve(request).await
                }
            }
        });
    Ok(with_edge(router, config))
}

/// The contracts' services, each with what it needs.
fn contracts(
    config: &Config,
    db: &Db,
    auth: &Authenticator,
    keys: TokenKeys,
    exports: &Exports,
    parts: Parts,
) -> Routes {
    let Parts { sender, plans, engine, stripe, renderer } = parts;
    let message_logins = crate::identity::message_login::MessageLogins::new(
        db.clone(),
        keys.clone(),
        &config.whatsapp.business_number,
    );
    let login = Login::new(
        db.clone(),
        sender,
        CodeHasher::new(&config.jwt_secret),
        keys,
        &config.whatsapp.business_number,
    );
    Routes::new(AuthServiceServer::new(AuthApi::new(login, message_logins)))
        .add_service(BusinessPlanServiceServer::new(BusinessPlanApi::new(
            plans.clone(),
            renderer,
            engine.clone(),
            auth.sessions().clone(),
        )))
        .add_service(DashboardServiceServer::new(DashboardApi::new(
            plans.clone(),
            &config.whatsapp.business_number,
        )))
        .add_service(BillingServiceServer::new(BillingApi::new(
            db.clone(),
            config.payments,
            &config.public_url,
            &config.whatsapp.business_number,
            stripe.clone(),
            crate::identity::links::LinkKeys::new(&config.jwt_secret),
        )))
        .add_service(ConsultantServiceServer::new(ConsultantApi::new(engine, db.clone())))
        .add_service(ResultsServiceServer::new(crate::api::results::ResultsApi::new(plans.clone())))
        .add_service(AccountServiceServer::new(crate::api::account::AccountApi::new(exports.clone())))
        .add_service(LandingServiceServer::new(LandingApi::new(
            db.clone(),
            config.whatsapp.business_number_set.then_some(config.whatsapp.business_number.as_str()),
            &config.support_email,
            config.controller.clone(),
        )))
        .add_service(AdminServiceServer::new(AdminApi::new(
            db.clone(),
            plans.clone(),
            exports.clone(),
            config.whatsapp.rates,
        )))
        .add_service(SystemPromptServiceServer::new(SystemPromptApi::new(db.clone())))
        .add_service(HandoffServiceServer::new(HandoffApi::new(db.clone(), auth.sessions().clone())))
}

/// gRPC health (every contract reported serving) and reflection, which describes our services,
/// health and itself, so grpcurl can call any of them.
async fn with_health_and_reflection(routes: Routes) -> anyhow::Result<Routes> {
    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    health_reporter.set_serving::<AuthServiceServer<AuthApi>>().await;
    health_reporter.set_serving::<BusinessPlanServiceServer<BusinessPlanApi>>().await;
    health_reporter.set_serving::<DashboardServiceServer<DashboardApi>>().await;
    health_reporter.set_serving::<BillingServiceServer<BillingApi>>().await;
    health_reporter.set_serving::<ConsultantServiceServer<ConsultantApi>>().await;
    health_reporter.set_serving::<AdminServiceServer<AdminApi>>().await;
    health_reporter.set_serving::<SystemPromptServiceServer<SystemPromptApi>>().await;
    health_reporter.set_serving::<HandoffServiceServer<HandoffApi>>().await;
    health_reporter.set_serving::<LandingServiceServer<LandingApi>>().await;
    health_reporter.set_serving::<ResultsServiceServer<crate::api::results::ResultsApi>>().await;
    health_reporter.set_serving::<AccountServiceServer<crate::api::account::AccountApi>>().await;

    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
    };
    let reflection_v1 = reflection().build_v1()?;
    let reflection_v1alpha = reflection().build_v1alpha()?;
    Ok(routes.add_service(health_service).add_service(reflection_v1).add_service(reflection_v1alpha))
}

/// What providers call (WhatsApp's webhook; Stripe's when configured) and, in dev mode only
/// (which production refuses), the simulated WhatsApp.
fn callbacks(config: &Config, db: &Db, stripe: Option<StripeClient>) -> axum::Router {
    let payments = match &stripe {
        Some(stripe) => axum::Router::new()
            .route("/api/webhooks/stripe", axum::routing::post(webhooks::stripe))
            .with_state(StripeWebhook {
                db: db.clone(),
                stripe: stripe.clone(),
                public_url: config.public_url.clone(),
            }),
        None => axum::Router::new(),
    };
    let inbox = Inbox::new(
        db.clone(),
        Batching { window: config.whatsapp.batch_window, cap: config.whatsapp.batch_max },
    );
    let whatsapp = axum::Router::new()
        .route("/api/webhooks/whatsapp", get(webhooks::handshake).post(webhooks::receive))
        .with_state(WhatsAppWebhook {
            inbox: inbox.clone(),
            app_secret: config.whatsapp.app_secret.clone(),
            verify_token: config.whatsapp.verify_token.clone(),
        });
    let dev = match config.whatsapp.mode {
        WhatsAppMode::Dev => axum::Router::new()
            .route("/api/dev/whatsapp/outbox", get(dev::outbox))
            .route("/api/dev/whatsapp/outbox/files/{seq}", get(dev::outbox_file))
            .route("/api/dev/whatsapp/inbound", axum::routing::post(dev::inbound))
            .with_state(DevWhatsApp { db: db.clone(), inbox }),
        WhatsAppMode::Cloud => axum::Router::new(),
    };
    whatsapp.merge(payments).merge(dev)
}

/// The layers every request passes: CORS, the security headers, the client's address from the
/// trusted proxies, and a trace span (the path only: query strings may carry signed links).
fn with_edge(router: axum::Router, config: &Config) -> axum::Router {
    router
        .layer(cors(config))
        .layer(axum::middleware::from_fn({
            let https = config.serves_https();
            move |request, next| crate::api::security_headers::add(https, request, next)
        }))
        .layer(axum::middleware::from_fn({
            let trusted = Arc::new(config.trusted_proxies.clone());
            move |request, next| {
                crate::api::client_address::from_trusted_proxies(trusted.clone(), request, next)
            }
        }))
        .layer(TraceLayer::new_for_http().make_span_with(|request: &Request| {
            // The path only: query strings may carry signed links.
            tracing::info_span!("request", method = %request.method(), path = %request.uri().path())
        }))
}

/// The browser may call from `PUBLIC_URL` (and from Vite's dev server in development), and must
/// be able to read gRPC-Web's status trailers.
fn cors(config: &Config) -> CorsLayer {
    let mut origins: Vec<HeaderValue> = config.public_url.parse().into_iter().collect();
    if config.mode == RunMode::Development {
        origins.extend(["http://localhost:5173", "http://127.0.0.1:5173"].map(HeaderValue::from_static));
    }
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
            Method::OPTIONS,
        ])
        .allow_headers([
            header::CONTENT_TYPE,
            header::AUTHORIZATION,
            header::ACCEPT_LANGUAGE,
            HeaderName::from_static("x-grpc-web"),
            HeaderName::from_static("x-user-agent"),
            HeaderName::from_static("grpc-timeout"),
        ])
        .expose_headers([
            HeaderName::from_static("grpc-status"),
            HeaderName::from_static("grpc-message"),
            HeaderName::from_static("grpc-status-details-bin"),
        ])
        .max_age(Duration::from_secs(600))
}
