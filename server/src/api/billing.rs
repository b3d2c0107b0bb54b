//! `BillingService`: the plans on offer (served now), checkout and subscriptions (their domain
//! answers UNIMPLEMENTED until it lands).

use tonic::{Request, Response, Status};

use super::request_language;
use crate::{
    billing::plans::{self, Offer, PlanId},
    locale::Language,
    proto::socio::v1::{
        ListPlansRequest, ListPlansResponse, PlanOffer, PlanType, billing_service_server::BillingService,
    },
};

#[derive(Clone, Debug, Default)]
pub struct BillingApi;

#[tonic::async_trait]
impl BillingService for BillingApi {
    async fn list_plans(
        &self,
        request: Request<ListPlansRequest>,
    ) -> Result<Response<ListPlansResponse>, Status> {
        let fallback = request_language(&request);
        let lang = Language::parse(&request.get_ref().language).unwrap_or(fallback);
        let plans = plans::offers(lang).into_iter().map(plan_offer).collect();
        Ok(Response::new(ListPlansResponse { plans }))
    }
}

fn plan_offer(offer: Offer) -> PlanOffer {
    let reais = |cents: i64| cents as f64 / 100.0;
    PlanOffer {
        id: match offer.id {
            PlanId::Free => PlanType::Free,
            PlanId::Pro => PlanType::Pro,
        } as i32,
        name: offer.name.into(),
        price: reais(offer.monthly_cents),
        currency: "BRL".into(),
        period: offer.period.into(),
        description: offer.description.into(),
        features: offer.features.iter().map(|s| s.to_string()).collect(),
        limitations: offer.limitations.iter().map(|s| s.to_string()).collect(),
        button_text: offer.button_text.into(),
        popular: offer.popular,
        yearly_price: reais(offer.yearly_cents),
        yearly_savings: reais(offer.yearly_savings_cents()),
    }
}
