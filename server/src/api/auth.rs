//! `AuthService`: passwordless login over WhatsApp — send a code, verify it, refresh, log out,
//! and who am I. Thin: it reads the request, calls `identity::login`, and maps the result.

use tonic::{Request, Response};

use super::{Rpc, client_address, edge, named_language, request_language, user_proto, with_message};
use crate::{
    identity::login::Login,
    proto::socio::v1::{
        GetMeRequest, GetMeResponse, LogoutRequest, LogoutResponse, RefreshRequest, RefreshResponse,
        SendCodeRequest, SendCodeResponse, VerifyCodeRequest, VerifyCodeResponse,
        auth_service_server::AuthService,
    },
};

#[derive(Clone)]
pub struct AuthApi {
    login: Login,
}

impl AuthApi {
    pub fn new(login: Login) -> Self {
        Self { login }
    }
}

#[tonic::async_trait]
impl AuthService for AuthApi {
    async fn send_code(&self, request: Request<SendCodeRequest>) -> Rpc<SendCodeResponse> {
        let lang = named_language(&request, &request.get_ref().language);
        let address = client_address::of(&request);
        let sent = self.login.send_code(&request.get_ref().phone_number, lang, address.as_deref()).await?;
        let reply = SendCodeResponse {
            expires_in_seconds: sent.expires_in.as_secs() as i32,
            resend_after_seconds: sent.resend_after.as_secs() as i32,
        };
        Ok(with_message(reply, lang.choose("Código de verificação enviado!", "Verification code sent!")))
    }

    async fn verify_code(&self, request: Request<VerifyCodeRequest>) -> Rpc<VerifyCodeResponse> {
        let lang = named_language(&request, &request.get_ref().language);
        let address = client_address::of(&request);
        let body = request.get_ref();
        let (user, pair) =
            self.login.verify_code(&body.phone_number, &body.verification_code, address.as_deref()).await?;
        let reply = VerifyCodeResponse {
            token: pair.access,
            refresh_token: pair.refresh,
            user: Some(user_proto(&user)),
        };
        Ok(with_message(
            reply,
            lang.choose(
                "Bem-vindo! Você entrou com sucesso.",
                "Welcome! You've been successfully logged in.",
            ),
        ))
    }

    async fn get_me(&self, request: Request<GetMeRequest>) -> Rpc<GetMeResponse> {
        let caller = edge::caller(&request)?;
        Ok(Response::new(GetMeResponse { user: Some(user_proto(&caller.user)) }))
    }

    async fn logout(&self, request: Request<LogoutRequest>) -> Rpc<LogoutResponse> {
        let lang = request_language(&request);
        let session = edge::optional_caller(&request).map(|c| c.session_id);
        self.login.logout(session.as_deref(), &request.get_ref().refresh_token).await?;
        Ok(with_message(LogoutResponse {}, lang.choose("Você saiu da sua conta.", "You have logged out.")))
    }

    async fn refresh(&self, request: Request<RefreshRequest>) -> Rpc<RefreshResponse> {
        let pair = self.login.refresh(&request.get_ref().refresh_token).await?;
        Ok(Response::new(RefreshResponse { token: pair.access, refresh_token: pair.refresh }))
    }
}
