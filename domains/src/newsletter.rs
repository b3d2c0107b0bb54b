//! The landing page's newsletter: an e-mail address given with consent (LGPD keeps the consent's
//! time), stored once however many times it is given.

use std::time::Duration;

use crate::{
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::AppError,
    locale::Language,
};

/// Sign-ups from one client address.
const SIGNUPS_PER_ADDRESS: Limit = Limit { max: 10, window: Duration::from_secs(3600) };

/// The newsletter as a service: a sign-up from the landing page, within its address's limit.
#[derive(Clone)]
pub struct Newsletter {
    db: Db,
}

impl Newsletter {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// Stores the address with the consent given now, from `address` (`RateLimited` past its
    /// limit, nothing stored).
    pub async fn subscribe(
        &self,
        email: &Email,
        language: Language,
        address: Option<&str>,
    ) -> Result<(), AppError> {
        rate_limit::per_address(&self.db, "newsletter", address, SIGNUPS_PER_ADDRESS).await?;
        subscribe(&self.db, email, language).await
    }
}

/// An e-mail address as people type it, checked for the shape every address has: one `@`, a local
/// part, a domain with a dot, no spaces, at most 254 characters. Kept in lower case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim().to_lowercase();
        if text.len() > 254 || text.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return None;
        }
        let (local, domain) = text.split_once('@')?;
        let labels: Vec<&str> = domain.split('.').collect();
        let ok = !local.is_empty()
            && local.len() <= 64
            && !domain.contains('@')
            && labels.len() >= 2
            && labels.iter().all(|l| !l.is_empty() && !l.starts_with('-') && !l.ends_with('-'))
            && labels.last().is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_alphabetic()));
        ok.then_some(Self(text))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Stores the address; giving it again keeps the first consent.
pub(in crate::newsletter) async fn subscribe(
    db: &Db,
    email: &Email,
    language: Language,
) -> Result<(), AppError> {
    let now = db.now_ms();
    sqlx::query(
        "insert into newsletter_subscribers (email, language, consented_at, created_at) values ($1, $2, $3, $3) \
         on conflict (email) do nothing",
    )
    .bind(email.as_str())
    .bind(language.tag())
    .bind(now)
    .execute(&mut *db.writer().await?)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_people_type_are_accepted_in_lower_case() {
        assert_eq!(
            Email::parse(" Ana.Lima+news@Exemplo.com.br ").unwrap().as_str(),
            "ana.lima+news@exemplo.com.br"
        );
        assert!(Email::parse("joao@padaria.app").is_some());
    }

    #[test]
    fn malformed_addresses_are_refused() {
        for bad in [
            "",
            "ana",
            "ana@",
            "@exemplo.com",
            "ana@exemplo",
            "ana@@exemplo.com",
            "ana lima@exemplo.com",
            "ana@exemplo.c",
            "ana@-x.com",
            "ana@exemplo..com",
        ] {
            assert!(Email::parse(bad).is_none(), "{bad:?}");
        }
        assert!(Email::parse(&format!("{}@exemplo.com", "a".repeat(65))).is_none());
    }
}
