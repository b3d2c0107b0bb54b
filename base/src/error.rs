//! One error type for the whole server, mapped exhaustively (no `_` arm) to gRPC status codes and
//! so, through the REST layer, to HTTP. Messages are rendered in the caller's language at the edge;
//! internal failures are logged here and never shown to the caller.

#![deny(clippy::wildcard_enum_match_arm)]

use tonic::Code;
use tonic_types::{ErrorDetails, StatusExt};

use crate::locale::Language;

/// What is wrong with one input field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    Required,
    TooLong {
        max: usize,
    },
    TooShort {
        min: usize,
    },
    OutOfRange {
        min: i64,
        max: i64,
    },
    /// Not in the expected format; the string says which format, in both languages.
    Format {
        pt_br: &'static str,
        en: &'static str,
    },
    /// Not one of the accepted values.
    NotOneOf(Vec<String>),
}

/// Why text holding a NUL character is refused.
pub const NUL_PT_BR: &str = "não pode conter o caractere nulo (\\0)";
pub const NUL_EN: &str = "must not contain the null character (\\0)";

/// An invalid input field, by its JSON name (e.g. `phoneNumber`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldViolation {
    pub field: String,
    pub problem: Problem,
}

impl Problem {
    pub fn one_of(values: &[&str]) -> Self {
        Problem::NotOneOf(values.iter().map(|v| v.to_string()).collect())
    }
}

impl FieldViolation {
    pub fn new(field: impl Into<String>, problem: Problem) -> Self {
        Self { field: field.into(), problem }
    }
}

/// Things that may be missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    User,
    BusinessPlan,
    SystemPrompt,
    CheckoutSession,
    Subscription,
    Job,
    /// A file the dev outbox kept.
    File,
    /// A login by message (`StartWhatsAppLogin`).
    Login,
    /// A guarantee refund paid by hand (boleto).
    Refund,
}

/// Requests that are well formed but cannot be done in the present state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precondition {
    ActivePromptCannotBeDeleted,
    /// The consultant is part of the Pro plan.
    ConsultantIsPro,
    /// WhatsApp lets us write freely only within 24 hours of the person's last message.
    OutsideServiceWindow,
    /// A refund by Pix cannot be paid before the person gave a Pix key.
    RefundWithoutPixKey,
    /// The refund was already paid.
    RefundAlreadyPaid,
    /// The person already has Pro running: a checkout would replace it.
    AlreadyPro,
    /// The refund's Pix key is not the one the admin was shown (and paid).
    RefundKeyChanged,
    /// The person's Pix key is kept as given once the refund is to be paid: a change goes
    /// through support.
    RefundKeyFrozen,
    /// The IBS/CBS choice is a Simples Nacional company's, and needs its revenue and annex.
    ReformChoiceNeedsSimples,
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("invalid input: {0:?}")]
    InvalidInput(Vec<FieldViolation>),
    #[error("the request body is not valid: {0}")]
    MalformedBody(String),
    #[error("unauthenticated")]
    Unauthenticated,
    #[error("permission denied")]
    PermissionDenied,
    #[error("{0:?} not found")]
    NotFound(Resource),
    #[error("{0:?} already exists")]
    AlreadyExists(Resource),
    #[error("precondition failed: {0:?}")]
    FailedPrecondition(Precondition),
    #[error("rate limited for {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    /// The number has never written to us on WhatsApp (and is not an admin's).
    #[error("not registered")]
    NotRegistered { whatsapp_url: String },
    /// A code went to this number less than a minute ago: it is still valid, and another may be
    /// asked for after `retry_after_secs`.
    #[error("a code was sent {retry_after_secs} s too recently")]
    CodeAlreadySent { retry_after_secs: u64 },
    /// A login code that is wrong, used, replaced or expired.
    #[error("invalid login code")]
    InvalidCode,
    /// Too many wrong codes for this number: locked for a while.
    #[error("number locked for {retry_after_secs} s")]
    NumberLocked { retry_after_secs: u64 },
    /// The caller already has this many live streams open; one must close first.
    #[error("{max} streams already open")]
    TooManyStreams { max: usize },
    /// Another admin is answering this conversation.
    #[error("the conversation is taken by {by}")]
    ConversationTaken { by: String },
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// The payment provider said no (a refund, a cancellation): nothing changed here.
    #[error("the payment provider refused: {0}")]
    PaymentsRefused(String),
    /// The payment provider could not be reached: nothing changed here; safe to retry.
    #[error("the payment provider is unavailable: {0}")]
    PaymentsUnavailable(String),
    #[error("internal: {0:#}")]
    Internal(#[from] anyhow::Error),
}

pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    pub fn invalid(field: impl Into<String>, problem: Problem) -> Self {
        AppError::InvalidInput(vec![FieldViolation::new(field, problem)])
    }

    pub fn code(&self) -> Code {
        match self {
            AppError::InvalidInput(_) | AppError::MalformedBody(_) => Code::InvalidArgument,
            AppError::Unauthenticated | AppError::InvalidCode => Code::Unauthenticated,
            AppError::PermissionDenied => Code::PermissionDenied,
            AppError::NotRegistered { .. } => Code::NotFound,
            AppError::NumberLocked { .. } => Code::ResourceExhausted,
            AppError::NotFound(_) => Code::NotFound,
            AppError::AlreadyExists(_) => Code::AlreadyExists,
            AppError::FailedPrecondition(_) => Code::FailedPrecondition,
            AppError::ConversationTaken { .. } => Code::Aborted,
            AppError::RateLimited { .. }
            | AppError::CodeAlreadySent { .. }
            | AppError::TooManyStreams { .. } => Code::ResourceExhausted,
            AppError::Unavailable(_) | AppError::PaymentsUnavailable(_) => Code::Unavailable,
            AppError::PaymentsRefused(_) => Code::FailedPrecondition,
            AppError::Internal(_) => Code::Internal,
        }
    }

    /// The message a user reads, in their language.
    pub fn message(&self, lang: Language) -> String {
        match self {
            AppError::InvalidInput(violations) => {
                let first = violations.first().map(|v| violation_text(v, lang)).unwrap_or_default();
                lang.choose(format!("Dados inválidos: {first}"), format!("Invalid input: {first}"))
            }
            AppError::MalformedBody(detail) => lang.choose(
                format!("O corpo da requisição não é válido: {detail}"),
                format!("The request body is not valid: {detail}"),
            ),
            AppError::Unauthenticated => {
                lang.choose("Faça login para continuar.", "Please log in to continue.").into()
            }
            AppError::PermissionDenied => lang
                .choose(
                    "Acesso negado. Você não tem permissão para esta ação.",
                    "Access denied. You are not allowed to do this.",
                )
                .into(),
            AppError::NotFound(resource) => not_found_text(*resource, lang).into(),
            AppError::AlreadyExists(resource) => lang.choose(
                format!("{} já existe.", resource_name(*resource, lang)),
                format!("{} already exists.", resource_name(*resource, lang)),
            ),
            AppError::FailedPrecondition(precondition) => precondition_text(*precondition, lang).into(),
            AppError::ConversationTaken { by } => lang.choose(
                format!("Esta conversa já está sendo atendida por {by}."),
                format!("{by} is already answering this conversation."),
            ),
            AppError::RateLimited { retry_after_secs } => lang.choose(
                format!("Muitas tentativas. Tente novamente em {retry_after_secs} segundos."),
                format!("Too many attempts. Try again in {retry_after_secs} seconds."),
            ),
            AppError::NotRegistered { .. } => lang
                .choose(
                    "Número não registrado. Envie uma mensagem para o Sócio no WhatsApp para começar.",
                    "Number not registered. Send Sócio a message on WhatsApp to get started.",
                )
                .into(),
            AppError::CodeAlreadySent { retry_after_secs } => code_already_sent_text(*retry_after_secs, lang),
            AppError::InvalidCode => lang
                .choose(
                    "Código inválido ou expirado. Confira o código e tente novamente.",
                    "Invalid or expired code. Please check your code and try again.",
                )
                .into(),
            AppError::NumberLocked { retry_after_secs } => number_locked_text(*retry_after_secs, lang),
            AppError::TooManyStreams { max } => lang.choose(
                format!("Você já acompanha o plano em {max} telas abertas. Feche uma delas para abrir outra."),
                format!("You are already following the plan in {max} open screens. Close one to open another."),
            ),
            AppError::Unavailable(_) => lang
                .choose(
                    "Serviço temporariamente indisponível. Tente novamente em instantes.",
                    "The service is temporarily unavailable. Please try again shortly.",
                )
                .into(),
            AppError::PaymentsRefused(_) => lang
                .choose(
                    "O provedor de pagamentos recusou a operação. Nada foi alterado na sua assinatura; fale com o suporte.",
                    "The payment provider refused the operation. Nothing changed in your subscription; please contact support.",
                )
                .into(),
            AppError::PaymentsUnavailable(_) => lang
                .choose(
                    "Não conseguimos falar com o provedor de pagamentos agora. Nada foi alterado na sua assinatura: tente de novo em instantes.",
                    "We could not reach the payment provider just now. Nothing changed in your subscription: please try again shortly.",
                )
                .into(),
            AppError::Internal(_) => lang
                .choose(
                    "Algo deu errado do nosso lado. Tente novamente.",
                    "Something went wrong on our side. Please try again.",
                )
                .into(),
        }
    }

    /// The gRPC status, with field violations as `google.rpc.BadRequest` details. Internal errors
    /// are logged here, once, and reach the caller only as a generic message.
    pub fn into_status(self, lang: Language) -> tonic::Status {
        let message = self.message(lang);
        match &self {
            AppError::Internal(err) => tracing::error!(error = %format!("{err:#}"), "internal error"),
            AppError::Unavailable(why) => tracing::warn!(%why, "unavailable"),
            AppError::PaymentsRefused(why) | AppError::PaymentsUnavailable(why) => {
                tracing::warn!(%why, "the payment provider did not do it")
            }
            AppError::InvalidInput(_)
            | AppError::MalformedBody(_)
            | AppError::Unauthenticated
            | AppError::PermissionDenied
            | AppError::NotFound(_)
            | AppError::AlreadyExists(_)
            | AppError::FailedPrecondition(_)
            | AppError::RateLimited { .. }
            | AppError::CodeAlreadySent { .. }
            | AppError::NotRegistered { .. }
            | AppError::InvalidCode
            | AppError::TooManyStreams { .. }
            | AppError::ConversationTaken { .. }
            | AppError::NumberLocked { .. } => {}
        }
        match &self {
            AppError::InvalidInput(violations) => {
                let mut details = ErrorDetails::new();
                for v in violations {
                    details.add_bad_request_violation(v.field.clone(), violation_text(v, lang));
                }
                tonic::Status::with_error_details(self.code(), message, details)
            }
            AppError::RateLimited { retry_after_secs } | AppError::NumberLocked { retry_after_secs } => {
                let details =
                    ErrorDetails::with_retry_info(Some(std::time::Duration::from_secs(*retry_after_secs)));
                tonic::Status::with_error_details(self.code(), message, details)
            }
            AppError::CodeAlreadySent { retry_after_secs } => {
                let mut details = ErrorDetails::new();
                details.set_retry_info(Some(std::time::Duration::from_secs(*retry_after_secs)));
                details.set_error_info("CODE_ALREADY_SENT", "socio", std::collections::HashMap::new());
                tonic::Status::with_error_details(self.code(), message, details)
            }
            AppError::NotRegistered { whatsapp_url } => {
                let metadata =
                    std::collections::HashMap::from([("whatsappUrl".to_owned(), whatsapp_url.clone())]);
                let details = ErrorDetails::with_error_info("USER_NOT_REGISTERED", "socio", metadata);
                tonic::Status::with_error_details(self.code(), message, details)
            }
            AppError::MalformedBody(_)
            | AppError::Unauthenticated
            | AppError::PermissionDenied
            | AppError::NotFound(_)
            | AppError::AlreadyExists(_)
            | AppError::FailedPrecondition(_)
            | AppError::Unavailable(_)
            | AppError::PaymentsRefused(_)
            | AppError::PaymentsUnavailable(_)
            | AppError::InvalidCode
            | AppError::TooManyStreams { .. }
            | AppError::ConversationTaken { .. }
            | AppError::Internal(_) => tonic::Status::new(self.code(), message),
        }
    }
}

/// Handlers return `AppError` with `?`: it becomes a status in the language of the request being
/// served, which the RPC edge scoped (`locale::in_request`).
impl From<AppError> for tonic::Status {
    fn from(err: AppError) -> Self {
        err.into_status(crate::locale::current())
    }
}

impl From<sqlx::Error> for AppError {
    // sqlx::Error is non-exhaustive: what is not an outage is a defect.
    #[allow(clippy::wildcard_enum_match_arm)]
    fn from(err: sqlx::Error) -> Self {
        match err {
            sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_) => {
                AppError::Unavailable(err.to_string())
            }
            // PostgreSQL's text cannot hold a NUL character (22021), nor jsonb a `\u0000` (22P05):
            // input that slipped past the edge's checks is refused, and nothing was written.
            sqlx::Error::Database(db) if matches!(db.code().as_deref(), Some("22021" | "22P05")) => {
                AppError::invalid("text", Problem::Format { pt_br: NUL_PT_BR, en: NUL_EN })
            }
            other => AppError::Internal(anyhow::Error::new(other).context("database")),
        }
    }
}

/// Why a call cannot go ahead in the state things are in.
fn precondition_text(precondition: Precondition, lang: Language) -> &'static str {
    match precondition {
        Precondition::ActivePromptCannotBeDeleted => lang.choose(
            "O prompt ativo não pode ser excluído. Ative outro prompt primeiro.",
            "The active prompt cannot be deleted. Activate another prompt first.",
        ),
        Precondition::ConsultantIsPro => lang.choose(
            "O consultor de IA é exclusivo do plano Pro. Assine o Pro para conversar com ele.",
            "The AI consultant is part of the Pro plan. Get Pro to talk to it.",
        ),
        Precondition::OutsideServiceWindow => lang.choose(
            "Esta pessoa não escreve há mais de 24 horas, e o WhatsApp só permite responder dentro de 24 horas da última mensagem dela. A mensagem não foi enviada.",
            "This person has not written for over 24 hours, and WhatsApp only allows replies within 24 hours of their last message. The message was not sent.",
        ),
        Precondition::RefundWithoutPixKey => lang.choose(
            "A pessoa ainda não informou a chave Pix: o reembolso não pode ser pago antes disso.",
            "The person has not given a Pix key yet: the refund cannot be paid before that.",
        ),
        Precondition::RefundAlreadyPaid => {
            lang.choose("Este reembolso já foi pago.", "This refund was already paid.")
        }
        Precondition::AlreadyPro => lang.choose(
            "Este número já tem o Sócio Pro ativo: nada foi cobrado. Para mudar do mensal para o anual, entre no painel e use \"Mudar para anual\".",
            "This number already has Sócio Pro running: nothing was charged. To move from monthly to yearly, log in and use \"Switch to yearly\" on the dashboard.",
        ),
        Precondition::RefundKeyChanged => lang.choose(
            "A chave Pix deste reembolso não é a que você viu na lista: nada foi registrado. Recarregue a lista e confira a chave antes de pagar.",
            "This refund's Pix key is not the one you saw in the list: nothing was recorded. Reload the list and check the key before paying.",
        ),
        Precondition::RefundKeyFrozen => lang.choose(
            "Sua chave Pix para o reembolso já está registrada e o pagamento está em andamento; por segurança, ela não pode ser trocada por aqui. Se estiver errada, escreva \"atendente\" no WhatsApp e nossa equipe resolve com você.",
            "Your Pix key for the refund is already recorded and the payment is under way; for your safety it cannot be changed here. If it is wrong, write \"human\" on WhatsApp and our team will sort it out with you.",
        ),
        Precondition::ReformChoiceNeedsSimples => lang.choose(
            "A escolha de pagar IBS e CBS dentro ou fora do DAS é das empresas do Simples Nacional (não do MEI): no plano, escolha o Simples Nacional e a atividade (com o CNAE, se for serviço) na etapa Jurídico, e o ticket médio e as vendas na etapa Financeiro.",
            "Paying IBS and CBS inside or outside the DAS is a Simples Nacional company's choice (not a MEI's): in the plan, choose the Simples Nacional and the activity (with the CNAE for services) in the Legal step, and the average ticket and sales in the Finance step.",
        ),
    }
}

/// A login code was sent moments ago: it still holds, and another may be asked for later.
fn code_already_sent_text(retry_after_secs: u64, lang: Language) -> String {
    lang.choose(
        format!("Enviamos um código há pouco e ele continua valendo: confira o WhatsApp. Você pode pedir outro em {retry_after_secs} segundos."),
        format!("We sent you a code moments ago and it is still valid: check WhatsApp. You can ask for another in {retry_after_secs} seconds."),
    )
}

/// Too many wrong codes: the number is locked for a while, said in minutes.
fn number_locked_text(retry_after_secs: u64, lang: Language) -> String {
    let minutes = retry_after_secs.div_ceil(60);
    lang.choose(
        format!("Muitas tentativas com códigos errados. Tente novamente em {minutes} minutos."),
        format!("Too many wrong codes. Try again in {minutes} minutes."),
    )
}

fn violation_text(v: &FieldViolation, lang: Language) -> String {
    let field = &v.field;
    match &v.problem {
        Problem::Required => lang.choose(format!("{field} é obrigatório"), format!("{field} is required")),
        Problem::TooLong { max } => lang.choose(
            format!("{field} deve ter no máximo {max} caracteres"),
            format!("{field} must be at most {max} characters"),
        ),
        Problem::TooShort { min } => lang.choose(
            format!("{field} deve ter pelo menos {min} caracteres"),
            format!("{field} must be at least {min} characters"),
        ),
        Problem::OutOfRange { min, max } => lang.choose(
            format!("{field} deve estar entre {min} e {max}"),
            format!("{field} must be between {min} and {max}"),
        ),
        Problem::Format { pt_br, en } => lang.choose(format!("{field}: {pt_br}"), format!("{field}: {en}")),
        Problem::NotOneOf(values) => lang.choose(
            format!("{field} deve ser um de: {}", values.join(", ")),
            format!("{field} must be one of: {}", values.join(", ")),
        ),
    }
}

fn resource_name(resource: Resource, lang: Language) -> &'static str {
    match resource {
        Resource::User => lang.choose("Usuário", "User"),
        Resource::BusinessPlan => lang.choose("Plano de negócios", "Business plan"),
        Resource::SystemPrompt => lang.choose("Prompt do sistema", "System prompt"),
        Resource::CheckoutSession => lang.choose("Sessão de pagamento", "Checkout session"),
        Resource::Subscription => lang.choose("Assinatura", "Subscription"),
        Resource::Job => lang.choose("Tarefa", "Job"),
        Resource::File => lang.choose("Arquivo", "File"),
        Resource::Login => lang.choose("Pedido de acesso", "Login request"),
        Resource::Refund => lang.choose("Reembolso", "Refund"),
    }
}

fn not_found_text(resource: Resource, lang: Language) -> &'static str {
    match resource {
        Resource::User => lang.choose("Usuário não encontrado.", "User not found."),
        Resource::BusinessPlan => {
            lang.choose("Plano de negócios não encontrado.", "Business plan not found.")
        }
        Resource::SystemPrompt => {
            lang.choose("Prompt do sistema não encontrado.", "System prompt not found.")
        }
        Resource::CheckoutSession => {
            lang.choose("Sessão de pagamento não encontrada.", "Checkout session not found.")
        }
        Resource::Subscription => lang.choose("Nenhuma assinatura ativa.", "No active subscription."),
        Resource::Job => lang.choose("Tarefa não encontrada.", "Job not found."),
        Resource::File => lang.choose("Arquivo não encontrado.", "File not found."),
        Resource::Login => lang.choose(
            "Pedido de acesso não encontrado. Comece de novo pelo botão Entrar pelo WhatsApp.",
            "Login request not found. Start again with the Log in with WhatsApp button.",
        ),
        Resource::Refund => lang.choose("Nenhum reembolso por Pix pendente.", "No pending Pix refund."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_input_carries_field_violations_in_the_callers_language() {
        let status =
            AppError::invalid("language", Problem::one_of(&["pt-BR", "en"])).into_status(Language::En);
        assert_eq!(status.code(), Code::InvalidArgument);
        assert!(status.message().contains("language must be one of: pt-BR, en"));
        let details = status.get_error_details();
        let bad = details.bad_request().expect("bad request details");
        assert_eq!(bad.field_violations[0].field, "language");
    }

    #[test]
    fn internal_errors_never_leak_their_cause() {
        let status = AppError::Internal(anyhow::anyhow!("password=hunter2 at db.internal"))
            .into_status(Language::PtBr);
        assert_eq!(status.code(), Code::Internal);
        assert!(!status.message().contains("hunter2"));
        assert!(status.message().contains("Algo deu errado"));
    }

    #[tokio::test]
    async fn an_error_returned_with_a_question_mark_speaks_the_request_s_language() {
        let (status, _) = crate::locale::in_request(Language::En, async {
            tonic::Status::from(AppError::NotFound(Resource::User))
        })
        .await;
        assert_eq!(status.message(), "User not found.");
        assert_eq!(
            tonic::Status::from(AppError::NotFound(Resource::User)).message(),
            "Usuário não encontrado."
        );
    }

    #[test]
    fn database_outages_are_unavailable_not_internal() {
        assert_eq!(AppError::from(sqlx::Error::PoolTimedOut).code(), Code::Unavailable);
    }
}
