//! `AuthService`: passwordless login . Every RPC of the contract is served; until its domain lands, each answers
//! UNIMPLEMENTED (REST 501) honestly rather than pretending.

use crate::proto::socio::v1::auth_service_server::AuthService;

#[derive(Clone, Debug, Default)]
pub struct AuthApi;

impl AuthService for AuthApi {}
