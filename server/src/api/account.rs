//! `AccountService`: the signed-in person's rights of LGPD art. 18 without asking anyone — a
//! complete copy of their data (the admins' export, for themselves) and deleting the account (the
//! admins' erasure, for themselves), each recorded in the audit log.

use super::{
    call::{Answer, Call, Reply, rpc_service},
    timestamp,
};
use crate::{
    error::{AppError, Problem, Resource},
    privacy::{self, Privacy},
    proto::socio::v1::{self as pb, account_service_server::AccountService},
};

#[derive(Clone)]
pub struct AccountApi {
    privacy: Privacy,
}

impl AccountApi {
    pub fn new(privacy: Privacy) -> Self {
        Self { privacy }
    }
}

impl AccountApi {
    async fn export_my_data(&self, call: Call<ExportMyData>) -> Answer<ExportMyData> {
        let caller = call.caller()?;
        let user = &caller.user;
        let by = privacy::Request {
            actor_id: &user.id,
            action: "export_own_data",
            detail: "LGPD export, self-service",
        };
        let asker =
            privacy::Asker { user_id: &user.id, session_id: &caller.session_id, role: user.role.as_str() };
        let (download_url, expires) = self.privacy.export_link(&user.id, &by, &asker).await?;
        Ok(Reply::from(pb::ExportMyDataResponse { download_url, expires_at: Some(timestamp(expires)) }))
    }

    async fn delete_my_account(&self, call: Call<DeleteMyAccount>) -> Answer<DeleteMyAccount> {
        let user = call.user()?;
        let (user_id, was_pro) = (user.id.clone(), user.tier == crate::identity::users::Tier::Pro);
        if !call.body().confirm {
            return Err(AppError::invalid(
                "confirm",
                Problem::Format(said!("api-account-format-the-confirmation-that-you-want")),
            ));
        }
        let by = privacy::Request {
            actor_id: &user_id,
            action: "delete_own_account",
            detail: "LGPD erasure, self-service",
        };
        if !self.privacy.erase(&user_id, &by).await? {
            return Err(AppError::NotFound(Resource::User));
        }
        let notice = if was_pro {
            say!(crate::locale::current(), "api-account-your-account-and-your-data")
        } else {
            say!(crate::locale::current(), "api-account-your-account-and-your-data-2")
        };
        Ok(Reply::with_message(pb::DeleteMyAccountResponse { subscription_ended: was_pro }, notice))
    }
}

rpc_service!(AccountService for AccountApi {
    export_my_data,
    delete_my_account,
});
