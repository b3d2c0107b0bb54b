//! `AuthService`: passwordless login over WhatsApp — by sending us a message (start, then ask how
//! it stands) or with a code sent to a typed number (send, verify) — refresh, log out, and who am
//! I. Thin: it reads the request, calls `identity::login` or `identity::message_login`, and maps
//! the result.

use super::{
    call::{Answer, Call, Reply, rpc_service},
    timestamp, user_proto,
};
use crate::{
    identity::{
        device::Device,
        login::Login,
        message_login::{MessageLogins, Standing},
    },
    proto::socio::v1::{
        GetMeResponse, GetWhatsAppLoginResponse, LogoutResponse, RefreshResponse, SendCodeResponse,
        StartWhatsAppLoginResponse, VerifyCodeResponse, WhatsAppLoginStatus,
        auth_service_server::AuthService,
    },
};

#[derive(Clone)]
pub struct AuthApi {
    login: Login,
    message_logins: MessageLogins,
}

impl AuthApi {
    pub fn new(login: Login, message_logins: MessageLogins) -> Self {
        Self { login, message_logins }
    }
}

impl AuthApi {
    async fn send_code(&self, call: Call<SendCode>) -> Answer<SendCode> {
        let lang = call.named_lang(&call.body().language);
        let address = call.client_address();
        let sent = self.login.send_code(&call.body().phone_number, lang, address.as_deref()).await?;
        let reply = SendCodeResponse {
            expires_in_seconds: sent.expires_in.as_secs() as i32,
            resend_after_seconds: sent.resend_after.as_secs() as i32,
        };
        let notice = say!(crate::locale::current(), "api-auth-verification-code-sent");
        Ok(Reply::with_message(reply, notice))
    }

    async fn verify_code(&self, call: Call<VerifyCode>) -> Answer<VerifyCode> {
        call.named_lang(&call.body().language);
        let address = call.client_address();
        let body = call.body();
        let (user, pair) =
            self.login.verify_code(&body.phone_number, &body.verification_code, address.as_deref()).await?;
        let reply = VerifyCodeResponse {
            token: pair.access,
            refresh_token: pair.refresh,
            user: Some(user_proto(&user)),
        };
        let notice = say!(crate::locale::current(), "api-auth-welcome-you-ve-been-successfully");
        Ok(Reply::with_message(reply, notice))
    }

    async fn start_whats_app_login(&self, call: Call<StartWhatsAppLogin>) -> Answer<StartWhatsAppLogin> {
        let lang = call.named_lang(&call.body().language);
        let address = call.client_address();
        let device = Device::from_user_agent(call.user_agent());
        let started = self.message_logins.start(lang, address.as_deref(), &device).await?;
        Ok(Reply::from(StartWhatsAppLoginResponse {
            login_id: started.login_id,
            text: started.text,
            whatsapp_url: started.whatsapp_url,
            expires_at: Some(timestamp(started.expires_at)),
            match_code: started.match_code,
        }))
    }

    async fn get_whats_app_login(&self, call: Call<GetWhatsAppLogin>) -> Answer<GetWhatsAppLogin> {
        let standing = self.message_logins.status(&call.body().login_id).await?;
        let status = match &standing {
            Standing::Waiting => WhatsAppLoginStatus::Waiting,
            Standing::Confirmed(_) => WhatsAppLoginStatus::Confirmed,
            Standing::Refused => WhatsAppLoginStatus::Refused,
            Standing::Expired => WhatsAppLoginStatus::Expired,
            Standing::CodeRequired => WhatsAppLoginStatus::CodeRequired,
        };
        let mut reply = GetWhatsAppLoginResponse { status: status as i32, ..Default::default() };
        if let Standing::Confirmed(Some((user, pair))) = standing {
            reply.token = pair.access;
            reply.refresh_token = pair.refresh;
            reply.user = Some(user_proto(&user));
            let notice = say!(crate::locale::current(), "api-auth-welcome-you-ve-been-successfully");
            return Ok(Reply::with_message(reply, notice));
        }
        Ok(Reply::from(reply))
    }

    async fn get_me(&self, call: Call<GetMe>) -> Answer<GetMe> {
        let caller = call.caller()?;
        Ok(Reply::from(GetMeResponse { user: Some(user_proto(&caller.user)) }))
    }

    async fn logout(&self, call: Call<Logout>) -> Answer<Logout> {
        let session = call.optional_caller().map(|c| c.session_id.clone());
        self.login.logout(session.as_deref(), &call.body().refresh_token).await?;
        let notice = say!(crate::locale::current(), "api-auth-you-have-logged-out");
        Ok(Reply::with_message(LogoutResponse {}, notice))
    }

    async fn refresh(&self, call: Call<Refresh>) -> Answer<Refresh> {
        let address = call.client_address();
        let pair = self.login.refresh(&call.body().refresh_token, address.as_deref()).await?;
        Ok(Reply::from(RefreshResponse { token: pair.access, refresh_token: pair.refresh }))
    }
}

rpc_service!(AuthService for AuthApi {
    send_code,
    verify_code,
    get_me,
    logout,
    refresh,
    start_whats_app_login,
    get_whats_app_login,
});
