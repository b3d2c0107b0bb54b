//! `AuthService`: passwordless login over WhatsApp — send a code, verify it, refresh, log out,
//! and who am I. Thin: it reads the request, calls `identity::login`, and maps the result.

use tonic::{Request, Response, Status};

use super::{client_address, request_language, user_proto, with_message};
use crate::{
    identity::{caller::Authenticator, login::Login},
    locale::Language,
    proto::socio::v1::{
        GetMeRequest, GetMeResponse, LogoutRequest, LogoutResponse, RefreshRequest, RefreshResponse,
        SendCodeRequest, SendCodeResponse, VerifyCodeRequest, VerifyCodeResponse,
        auth_service_server::AuthService,
    },
};

#[derive(Clone)]
pub struct AuthApi {
    login: Login,
    auth: Authenticator,
}

impl AuthApi {
    pub fn new(login: Login, auth: Authenticator) -> Self {
        Self { login, auth }
    }
}

#[tonic::async_trait]
impl AuthService for AuthApi {
    async fn send_code(
        &self,
        request: Request<SendCodeRequest>,
    ) -> Result<Response<SendCodeResponse>, Status> {
        let lang = Language::parse(&request.get_ref().language).unwrap_or_else(|| request_language(&request));
        let address = client_address::of(&request);
        let sent = self
            .login
            .send_code(&request.get_ref().phone_number, lang, address.as_deref())
            .await
            .map_err(|e| e.into_status(lang))?;
        let reply = SendCodeResponse {
            expires_in_seconds: sent.expires_in.as_secs() as i32,
            resend_after_seconds: sent.resend_after.as_secs() as i32,
        };
        Ok(with_message(reply, lang.choose("Código de verificação enviado!", "Verification code sent!")))
    }

    async fn verify_code(
        &self,
        request: Request<VerifyCodeRequest>,
    ) -> Result<Response<VerifyCodeResponse>, Status> {
        let lang = Language::parse(&request.get_ref().language).unwrap_or_else(|| request_language(&request));
        let address = client_address::of(&request);
        let body = request.get_ref();
        let (user, pair) = self
            .login
            .verify_code(&body.phone_number, &body.verification_code, address.as_deref())
            .await
            .map_err(|e| e.into_status(lang))?;
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

    async fn get_me(&self, request: Request<GetMeRequest>) -> Result<Response<GetMeResponse>, Status> {
        let lang = request_language(&request);
        let caller = self.auth.caller(request.metadata()).await.map_err(|e| e.into_status(lang))?;
        Ok(Response::new(GetMeResponse { user: Some(user_proto(&caller.user)) }))
    }

    async fn logout(&self, request: Request<LogoutRequest>) -> Result<Response<LogoutResponse>, Status> {
        let lang = request_language(&request);
        let session = self.auth.caller(request.metadata()).await.ok().map(|c| c.session_id);
        self.login
            .logout(session.as_deref(), &request.get_ref().refresh_token)
            .await
            .map_err(|e| e.into_status(lang))?;
        Ok(with_message(LogoutResponse {}, lang.choose("Você saiu da sua conta.", "You have logged out.")))
    }

    async fn refresh(&self, request: Request<RefreshRequest>) -> Result<Response<RefreshResponse>, Status> {
        let lang = request_language(&request);
        let pair =
            self.login.refresh(&request.get_ref().refresh_token).await.map_err(|e| e.into_status(lang))?;
        Ok(Response::new(RefreshResponse { token: pair.access, refresh_token: pair.refresh }))
    }
}
