//! `AdminService`: the admin panel's calls. Every RPC of the contract is served; until its domain lands, each answers
//! UNIMPLEMENTED (REST 501) honestly rather than pretending.

use crate::proto::socio::v1::admin_service_server::AdminService;

#[derive(Clone, Debug, Default)]
pub struct AdminApi;

impl AdminService for AdminApi {}
