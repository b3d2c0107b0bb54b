//! `BusinessPlanService`: the business plan and its live sync. Every RPC of the contract is served; until its domain lands, each answers
//! UNIMPLEMENTED (REST 501) honestly rather than pretending.

use crate::proto::socio::v1::business_plan_service_server::BusinessPlanService;

#[derive(Clone, Debug, Default)]
pub struct BusinessPlanApi;

impl BusinessPlanService for BusinessPlanApi {}
