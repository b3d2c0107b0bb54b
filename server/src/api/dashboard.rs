//! `DashboardService`: the user's dashboard. Every RPC of the contract is served; until its domain lands, each answers
//! UNIMPLEMENTED (REST 501) honestly rather than pretending.

use crate::proto::socio::v1::dashboard_service_server::DashboardService;

#[derive(Clone, Debug, Default)]
pub struct DashboardApi;

impl DashboardService for DashboardApi {}
