//! `LandingService`: the public web app reports landing views and checkout starts by landing
//! variant for the admin's funnel. Rate-limited per client address, in the database so every
//! server process shares the limit.

use std::time::Duration;

use tonic::{Request, Response, Status};

use super::request_language;
use crate::{
    analytics::{self, EventKind, Variant, VisitorId},
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::{AppError, Problem},
    proto::socio::v1::{self as pb, landing_service_server::LandingService},
};

/// A page load sends one or two events; this leaves room for a busy shared address.
const EVENTS_PER_ADDRESS: Limit = Limit { max: 120, window: Duration::from_secs(60) };

#[derive(Clone)]
pub struct LandingApi {
    db: Db,
}

impl LandingApi {
    pub fn new(db: Db) -> Self {
        Self { db }
    }
}

#[tonic::async_trait]
impl LandingService for LandingApi {
    async fn track_event(
        &self,
        request: Request<pb::TrackEventRequest>,
    ) -> Result<Response<pb::TrackEventResponse>, Status> {
        let lang = request_language(&request);
        let body = request.get_ref();
        let kind = match pb::LandingEventKind::try_from(body.kind)
            .unwrap_or(pb::LandingEventKind::Unspecified)
        {
            pb::LandingEventKind::LandingView => EventKind::LandingView,
            pb::LandingEventKind::CheckoutStart => EventKind::CheckoutStart,
            pb::LandingEventKind::Unspecified => {
                return Err(AppError::invalid("kind", Problem::one_of(&["landing_view", "checkout_start"]))
                    .into_status(lang));
            }
        };
        let visitor = VisitorId::parse(&body.visitor_id).ok_or_else(|| {
            AppError::invalid(
                "visitorId",
                Problem::Format {
                    pt_br: "deve ter de 8 a 64 letras, dígitos ou hífens",
                    en: "must be 8 to 64 letters, digits or dashes",
                },
            )
            .into_status(lang)
        })?;
        if let Some(address) = request.remote_addr().map(|a| a.ip().to_string()) {
            let hit = rate_limit::hit(&self.db, &format!("track:ip:{address}"), EVENTS_PER_ADDRESS)
                .await
                .map_err(|e| AppError::from(e).into_status(lang))?;
            if let Err(exceeded) = hit {
                return Err(AppError::RateLimited {
                    retry_after_secs: exceeded.retry_after.as_secs().max(1),
                }
                .into_status(lang));
            }
        }
        analytics::record(&self.db, kind, Variant::parse(&body.variant), &visitor)
            .await
            .map_err(|e| AppError::from(e).into_status(lang))?;
        Ok(Response::new(pb::TrackEventResponse {}))
    }
}
