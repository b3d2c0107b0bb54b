//! One error type for the whole server, mapped exhaustively (no `_` arm) to gRPC status codes and
//! so, through the REST layer, to HTTP. Messages are rendered in the caller's language at the edge;
//! internal failures are logged here and never shown to the caller.

#![deny(clippy::wildcard_enum_match_arm)]

use tonic::Code;
use tonic_types::{ErrorDetails, StatusExt};

use crate::{locale::Language, words::Said};

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
    /// Not in the expected format; the message says which format.
    Format(Said),
    /// Not one of the accepted values.
    NotOneOf(Vec<String>),
}

/// Why text holding a NUL character is refused.
pub const NUL: Problem = Problem::Format(said!("error-no-nul"));

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
    /// A write lost a race to a unique index (PostgreSQL 23505, SQLite's 2067): the caller may
    /// read again or retry.
    pub fn is_unique_violation(&self) -> bool {
        let AppError::Internal(err) = self else { return false };
        err.downcast_ref::<sqlx::Error>()
            .and_then(sqlx::Error::as_database_error)
            .is_some_and(|db| db.is_unique_violation())
    }

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
                say!(lang, "error-invalid-input", first)
            }
            AppError::MalformedBody(detail) => say!(lang, "error-the-request-body-is-not", detail),
            AppError::Unauthenticated => {
                say!(lang, "error-please-log-in-to-continue")
            }
            AppError::PermissionDenied => say!(lang, "error-access-denied-you-are-not"),
            AppError::NotFound(resource) => not_found_text(*resource, lang),
            AppError::AlreadyExists(resource) => {
                say!(lang, "error-already-exists", resource = resource_name(*resource, lang))
            }
            AppError::FailedPrecondition(precondition) => precondition_text(*precondition, lang),
            AppError::ConversationTaken { by } => {
                say!(lang, "error-is-already-answering-this-conversation", by)
            }
            AppError::RateLimited { retry_after_secs } => {
                say!(lang, "error-too-many-attempts-try-again", retry_after_secs)
            }
            AppError::NotRegistered { .. } => say!(lang, "error-number-not-registered-send-s"),
            AppError::CodeAlreadySent { retry_after_secs } => code_already_sent_text(*retry_after_secs, lang),
            AppError::InvalidCode => say!(lang, "error-invalid-or-expired-code-please"),
            AppError::NumberLocked { retry_after_secs } => number_locked_text(*retry_after_secs, lang),
            AppError::TooManyStreams { max } => say!(lang, "error-you-are-already-following-the", max),
            AppError::Unavailable(_) => say!(lang, "error-the-service-is-temporarily-unavailable"),
            AppError::PaymentsRefused(_) => say!(lang, "error-the-payment-provider-refused-the"),
            AppError::PaymentsUnavailable(_) => say!(lang, "error-we-could-not-reach-the"),
            AppError::Internal(_) => say!(lang, "error-something-went-wrong-on-our"),
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
                AppError::invalid("text", NUL)
            }
            other => AppError::Internal(anyhow::Error::new(other).context("database")),
        }
    }
}

/// Why a call cannot go ahead in the state things are in.
fn precondition_text(precondition: Precondition, lang: Language) -> String {
    match precondition {
        Precondition::ActivePromptCannotBeDeleted => say!(lang, "error-the-active-prompt-cannot-be"),
        Precondition::ConsultantIsPro => say!(lang, "error-the-ai-consultant-is-part"),
        Precondition::OutsideServiceWindow => say!(lang, "error-this-person-has-not-written"),
        Precondition::RefundWithoutPixKey => say!(lang, "error-the-person-has-not-given"),
        Precondition::RefundAlreadyPaid => {
            say!(lang, "error-this-refund-was-already-paid")
        }
        Precondition::AlreadyPro => say!(lang, "error-this-number-already-has-s"),
        Precondition::RefundKeyChanged => say!(lang, "error-this-refund-s-pix-key"),
        Precondition::RefundKeyFrozen => say!(lang, "error-your-pix-key-for-the"),
        Precondition::ReformChoiceNeedsSimples => say!(lang, "error-paying-ibs-and-cbs-inside"),
    }
}

/// A login code was sent moments ago: it still holds, and another may be asked for later.
fn code_already_sent_text(retry_after_secs: u64, lang: Language) -> String {
    say!(lang, "error-we-sent-you-a-code", retry_after_secs)
}

/// Too many wrong codes: the number is locked for a while, said in minutes.
fn number_locked_text(retry_after_secs: u64, lang: Language) -> String {
    let minutes = retry_after_secs.div_ceil(60);
    say!(lang, "error-too-many-wrong-codes-try", minutes)
}

fn violation_text(v: &FieldViolation, lang: Language) -> String {
    let field = &v.field;
    match &v.problem {
        Problem::Required => say!(lang, "error-is-required", field),
        Problem::TooLong { max } => say!(lang, "error-must-be-at-most-characters", field, max),
        Problem::TooShort { min } => say!(lang, "error-must-be-at-least-characters", field, min),
        Problem::OutOfRange { min, max } => say!(lang, "error-must-be-between-and", field, min, max),
        Problem::Format(format) => say!(lang, "error-format", field, format = format.in_language(lang)),
        Problem::NotOneOf(values) => say!(lang, "error-must-be-one-of", field, values = values.join(", ")),
    }
}

fn resource_name(resource: Resource, lang: Language) -> String {
    match resource {
        Resource::User => say!(lang, "error-user"),
        Resource::BusinessPlan => say!(lang, "error-business-plan"),
        Resource::SystemPrompt => say!(lang, "error-system-prompt"),
        Resource::CheckoutSession => say!(lang, "error-checkout-session"),
        Resource::Subscription => say!(lang, "error-subscription"),
        Resource::Job => say!(lang, "error-job"),
        Resource::File => say!(lang, "error-file"),
        Resource::Login => say!(lang, "error-login-request"),
        Resource::Refund => say!(lang, "error-refund"),
    }
}

fn not_found_text(resource: Resource, lang: Language) -> String {
    match resource {
        Resource::User => say!(lang, "error-user-not-found"),
        Resource::BusinessPlan => {
            say!(lang, "error-business-plan-not-found")
        }
        Resource::SystemPrompt => {
            say!(lang, "error-system-prompt-not-found")
        }
        Resource::CheckoutSession => {
            say!(lang, "error-checkout-session-not-found")
        }
        Resource::Subscription => say!(lang, "error-no-active-subscription"),
        Resource::Job => say!(lang, "error-job-not-found"),
        Resource::File => say!(lang, "error-file-not-found"),
        Resource::Login => say!(lang, "error-login-request-not-found-start"),
        Resource::Refund => say!(lang, "error-no-pending-pix-refund"),
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
