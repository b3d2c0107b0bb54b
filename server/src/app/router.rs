//! Every protocol on one router: the gRPC services (native, gRPC-Web and the REST transcoder with
//! its OpenAPI document) behind the deny-by-default edge, health and reflection, the providers'
//! callbacks, the dev simulator, the web app; CORS and the connection-level layers.

use std::{sync::Arc, time::Duration};

use anyhow::Context;
use axum::{extract::Request, routing::get};
use http::{HeaderName, HeaderValue, Method, header};
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
        edge::{EdgeLayer, Gate},
        export::Exports,
        handoff::HandoffApi,
        health,
        landing::LandingApi,
        rest::{Rest, openapi, routes::RouteTable},
        system_prompts::SystemPromptApi,
        unary::Unaries,
        web::WebApp,
        webhooks::{self, WhatsAppWebhook},
    },
    billing::{stripe::StripeClient, stripe_events::StripeWebhooks},
    config::{Config, RunMode, WhatsAppMode},
    conversation::{desk::Desk, inbox::Inbox},
    db::{Db, jobs::Batching},
    identity::{caller::Authenticator, codes::CodeHasher, login::Login, sessions::TokenKeys},
    privacy::Privacy,
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
};

use super::Parts;

/// Every protocol on one router.
pub(super) async fn build_router(
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
    let privacy = Privacy::new(db.clone(), parts.plans.clone(), &config.jwt_secret, &config.public_url);
    let callbacks = callbacks(config, db, parts.stripe.clone());
    let (contracts, unaries) = contracts(config, db, &auth, keys, &privacy, parts);
    let grpc = with_health_and_reflection(contracts).await?;

    let table = RouteTable::from_pool(descriptor_pool(), "socio.v1")?;
    let openapi = bytes::Bytes::from(serde_json::to_vec(&openapi::document(&table))?);
    // Every service behind the one gate (the method's rule, the write budget, the request's
    // language): a layer on the gRPC routes (native and, through its translation, gRPC-Web), and
    // the REST transcoder's own door to the same handlers.
    let gate = Gate::new(auth, crate::db::rate_limit::WriteBudget::new(db.clone()));
    let services = grpc.into_axum_router().layer(EdgeLayer::new(gate.clone()));
    let rest = Rest::new(table, unaries, gate)?;
    let web = WebApp::new(&config.web_dir);
    let export_routes = axum::Router::new()
        .route("/api/admin/exports/{user_id}", get(crate::api::export::download))
        .with_state(Exports::new(privacy));
    let probe = crate::telemetry::health::Health::new(db.clone(), job_kinds);
    let ready = probe.clone();

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
        .route("/readyz", get(move || health::readyz(axum::extract::State(ready.clone()))))
        .route(
            "/metrics",
            get(health::metrics).with_state(health::MetricsAccess {
                health: probe,
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

/// The contracts' services, each with what it needs: as tonic's routes, and their unary methods for
/// The gRPC routes and the unary registry of every service, each named once.
macro_rules! services {
    ($($server:ident => $api:expr),+ $(,)?) => {{
        let routes = Routes::default()$(.add_service($server::from_arc($api.clone())))+;
        let unaries = Unaries::default()$(.with($api))+;
        (routes, unaries)
    }};
}

/// the REST transcoder (the same instances).
fn contracts(
    config: &Config,
    db: &Db,
    auth: &Authenticator,
    keys: TokenKeys,
    privacy: &Privacy,
    parts: Parts,
) -> (Routes, Unaries) {
    let Parts { sender, plans, engine, stripe, renderer, proof } = parts;
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
        config.refresh_reuse_interval,
    );
    let auth_api = Arc::new(AuthApi::new(login, message_logins));
    let business_plan =
        Arc::new(BusinessPlanApi::new(plans.clone(), renderer, engine.clone(), auth.sessions().clone()));
    let dashboard =
        Arc::new(DashboardApi::new(plans.clone(), Desk::new(db.clone()), &config.whatsapp.business_number));
    let billing = Arc::new(BillingApi::new(
        crate::billing::payments::Payments::new(
            db.clone(),
            config.payments,
            &config.public_url,
            stripe.clone(),
            crate::identity::links::LinkKeys::new(&config.jwt_secret),
        ),
        crate::billing::manual_refunds::ManualRefunds::new(db.clone()),
        &config.whatsapp.business_number,
    ));
    let consultant =
        Arc::new(ConsultantApi::new(crate::consultant::web_chat::WebChat::new(engine, db.clone())));
    let results = Arc::new(crate::api::results::ResultsApi::new(
        crate::plan::tracking::Results::new(plans.clone()),
        crate::plan::tracking::reminders::Reminders::new(db.clone()),
    ));
    let account = Arc::new(crate::api::account::AccountApi::new(privacy.clone()));
    let landing = Arc::new(LandingApi::new(
        (crate::analytics::Funnel::new(db.clone()), crate::newsletter::Newsletter::new(db.clone()), proof),
        config.whatsapp.business_number_set.then_some(config.whatsapp.business_number.as_str()),
        &config.support_email,
        config.controller.clone(),
    ));
    let admin = Arc::new(AdminApi::new(
        crate::administration::Administration::new(db.clone(), plans.clone()),
        plans.clone(),
        privacy.clone(),
        config.whatsapp.rates,
        crate::billing::manual_refunds::ManualRefunds::new(db.clone()),
    ));
    let system_prompts = Arc::new(SystemPromptApi::new(crate::prompts::Prompts::new(db.clone())));
    let handoff =
        Arc::new(HandoffApi::new(crate::conversation::desk::Desk::new(db.clone()), auth.sessions().clone()));

    // Every service once: its gRPC route and its unary methods (REST's door to the handlers).
    services! {
        AuthServiceServer => auth_api,
        BusinessPlanServiceServer => business_plan,
        DashboardServiceServer => dashboard,
        BillingServiceServer => billing,
        ConsultantServiceServer => consultant,
        ResultsServiceServer => results,
        AccountServiceServer => account,
        LandingServiceServer => landing,
        AdminServiceServer => admin,
        SystemPromptServiceServer => system_prompts,
        HandoffServiceServer => handoff,
    }
}

/// gRPC health (every contract reported serving) and reflection, which describes our services,
/// health and itself, so grpcurl can call any of them.
async fn with_health_and_reflection(routes: Routes) -> anyhow::Result<Routes> {
    let (health_reporter, health_service) = tonic_health::server::health_reporter();
    // Every service of the contracts: each is routed above (a test calls every method of them).
    for service in crate::proto::descriptor_pool().services().filter(|s| s.package_name() == "socio.v1") {
        health_reporter.set_service_status(service.full_name(), tonic_health::ServingStatus::Serving).await;
    }

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
            .with_state(StripeWebhooks::new(db.clone(), stripe.clone(), &config.public_url)),
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
            .with_state(DevWhatsApp { outbox: crate::whatsapp::outbox::DevOutbox::new(db.clone()), inbox })
            .layer(axum::middleware::from_fn({
                let hosts = Arc::new(dev::local_hosts(&config.public_url));
                move |request, next| dev::addressed_here(hosts.clone(), request, next)
            })),
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
