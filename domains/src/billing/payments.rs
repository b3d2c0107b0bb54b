//! Paying as a service: whom a checkout is for (by number, by the opaque link, within the limits
//! of a request without a token), opening one Pro checkout at a time at the configured provider,
//! the pages around it, the subscription's status and cancellation, and the sandbox provider's
//! test page. It owns its reads and writes; the billing adapter holds no database.

use std::time::Duration;

use super::{
    cancellation::{self, Refund},
    checkout::{self, CheckoutSession, Outcome},
    stripe::StripeClient,
    subscriptions::{self, Interval, ProviderIds, Subscription},
};
use crate::{
    analytics::Variant,
    config::PaymentsProvider,
    db::{
        Db,
        rate_limit::{self, Limit},
    },
    error::{AppError, Resource},
    identity::{
        links::LinkKeys,
        phone::PhoneNumber,
        users::{Tier, User, Users},
    },
};

/// Checkouts asked for without a token, from one address and for one number.
pub const CHECKOUT_PER_ADDRESS: Limit = Limit { max: 20, window: Duration::from_secs(600) };
pub const CHECKOUT_PER_NUMBER: Limit = Limit { max: 10, window: Duration::from_secs(600) };
/// New checkout sessions opened for one person by people without a token (whatever their
/// address): each is a call to the provider. The person themselves (logged in, or through the
/// signed link we sent them) is never held back by them.
pub const NEW_ANONYMOUS_CHECKOUTS_PER_PERSON: Limit = Limit { max: 10, window: Duration::from_secs(600) };
/// Lookups of a checkout by its id without a token (the page after paying asks every 2 s; the
/// sandbox's page once), per address.
pub const LOOKUPS_PER_ADDRESS: Limit = Limit { max: 120, window: Duration::from_secs(60) };

/// Who asks for a checkout: a checkout still open is reopened only for whoever opened it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requester {
    /// The person themselves: logged in, or through the signed link we sent them.
    Person(String),
    /// Someone without a token, by number, from this client address (None: in process).
    Address(Option<String>),
}

impl Requester {
    fn key(&self) -> String {
        match self {
            Requester::Person(user_id) => format!("person:{user_id}"),
            Requester::Address(address) => format!("address:{}", address.as_deref().unwrap_or("-")),
        }
    }
}

#[derive(Clone)]
pub struct Payments {
    db: Db,
    provider: PaymentsProvider,
    public_url: String,
    stripe: Option<StripeClient>,
    links: LinkKeys,
    users: Users,
}

impl Payments {
    pub fn new(
        db: Db,
        provider: PaymentsProvider,
        public_url: &str,
        stripe: Option<StripeClient>,
        links: LinkKeys,
    ) -> Self {
        Self { users: Users::new(db.clone()), db, provider, public_url: public_url.to_owned(), stripe, links }
    }

    pub fn now_ms(&self) -> i64 {
        self.db.now_ms()
    }

    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    /// A checkout asked without a token counts against its address.
    pub async fn limit_address(&self, address: Option<&str>) -> Result<(), AppError> {
        rate_limit::per_address(&self.db, "checkout", address, CHECKOUT_PER_ADDRESS).await
    }

    /// A lookup of a checkout without a token counts against its address.
    pub async fn limit_lookup(&self, address: Option<&str>) -> Result<(), AppError> {
        rate_limit::per_address(&self.db, "checkout_lookup", address, LOOKUPS_PER_ADDRESS).await
    }

    /// A checkout asked without a token counts against the number it names, from that address:
    /// one address asking for someone else's number never locks out the person's own asks.
    pub async fn limit_number(&self, phone: &PhoneNumber, address: Option<&str>) -> Result<(), AppError> {
        let key = format!("checkout:number:{}:from:{}", phone.identity().e164(), address.unwrap_or("-"));
        rate_limit::per_key(&self.db, &key, CHECKOUT_PER_NUMBER).await
    }

    /// The person registered with the number, if any.
    pub async fn person_by_phone(&self, phone: &PhoneNumber) -> Result<Option<User>, AppError> {
        self.users.find_by_phone(phone).await
    }

    /// The person a checkout link names; None when the link is not ours or has expired.
    pub async fn person_by_link(&self, link: &str) -> Result<Option<User>, AppError> {
        let Some(user_id) = self.links.verify(link, self.db.now_ms()) else { return Ok(None) };
        self.users.find(&user_id).await?.ok_or(AppError::NotFound(Resource::User)).map(Some)
    }

    /// The page after checking out: with a paid checkout's session, it shows what was paid.
    pub fn success_url(&self, user: &User, session: Option<&str>) -> String {
        let encode = |value: &str| {
            percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC).to_string()
        };
        let mut query = Vec::new();
        if let Some(session) = session {
            query.push(format!("session={session}")); // our UUID: nothing to escape
        }
        if let Some(phone) = &user.phone {
            query.push(format!("phoneNumber={}", encode(phone.e164())));
        }
        match query.is_empty() {
            true => format!("{}/success", self.public_url),
            false => format!("{}/success?{}", self.public_url, query.join("&")),
        }
    }

    /// The checkout page again, for this person: by number, or by a fresh opaque link.
    pub fn checkout_page(&self, user: &User) -> String {
        self.links.checkout_page(&self.public_url, user, self.db.now_ms())
    }

    /// A Pro checkout through the provider for `requester`: its address.
    pub async fn pro_checkout(
        &self,
        user: &User,
        interval: Interval,
        landing_variant: Option<Variant>,
        requester: &Requester,
    ) -> Result<String, AppError> {
        let opened_by = requester.key();
        let variant = landing_variant.map(Variant::as_str);
        // One checkout is opened at a time per person, so that asking twice at once (two tabs, a
        // double click, a script) reopens the first instead of creating a second, here or at Stripe.
        let _one_at_a_time = self.db.lock_key(&format!("checkout:{}", user.id)).await?;
        let provider = match self.provider {
            PaymentsProvider::Sandbox => "sandbox",
            PaymentsProvider::Stripe => "stripe",
        };
        // Asking again (a reload, a second click, a script) reopens the checkout still open — the
        // requester's own: someone else asking with the person's number never gets it.
        match checkout::open_session(&self.db, &user.id, interval, provider, &opened_by).await? {
            Some((session, _)) if self.provider == PaymentsProvider::Sandbox => {
                return Ok(self.sandbox_page(&session.id));
            }
            Some((_, Some(url))) => return Ok(url),
            Some((_, None)) | None => {}
        }
        if let Requester::Address(_) = requester {
            let key = format!("checkout:new:anonymous:{}", user.id);
            rate_limit::per_key(&self.db, &key, NEW_ANONYMOUS_CHECKOUTS_PER_PERSON).await?;
        }
        match self.provider {
            PaymentsProvider::Sandbox => {
                let session =
                    checkout::create_session(&self.db, &user.id, interval, "sandbox", variant, &opened_by)
                        .await?;
                Ok(self.sandbox_page(&session.id))
            }
            PaymentsProvider::Stripe => {
                let stripe = self
                    .stripe
                    .as_ref()
                    .ok_or_else(|| AppError::Unavailable("Stripe is not configured".into()))?;
                let session =
                    checkout::create_session(&self.db, &user.id, interval, "stripe", variant, &opened_by)
                        .await?;
                let cancel_url = self.checkout_page(user);
                let created = stripe
                    .create_checkout(&session, &self.success_url(user, Some(&session.id)), &cancel_url)
                    .await?;
                checkout::set_provider_session(&self.db, &session.id, &created.id, &created.url).await?;
                Ok(created.url)
            }
        }
    }

    fn sandbox_page(&self, session_id: &str) -> String {
        format!("{}/checkout/sandbox/{session_id}", self.public_url)
    }

    /// The person's current subscription, if any.
    pub async fn current(&self, user_id: &str) -> Result<Option<Subscription>, AppError> {
        let mut conn = self.db.pool().acquire().await?;
        subscriptions::current(&mut conn, user_id).await
    }

    /// Cancels the person's subscription (refunded within the 7-day guarantee); the subscription,
    /// what became of the payment and the person's tier after it.
    pub async fn cancel(&self, user_id: &str) -> Result<(Subscription, Refund, Tier), AppError> {
        let (subscription, refunded) = cancellation::cancel(&self.db, self.stripe.as_ref(), user_id).await?;
        let user = self.users.find(user_id).await?;
        Ok((subscription, refunded, user.map(|u| u.tier).unwrap_or(Tier::Free)))
    }

    /// What came of a checkout session (`NotFound` for an id that is not one).
    pub async fn outcome(&self, session_id: &str) -> Result<Outcome, AppError> {
        let outcome = match uuid::Uuid::parse_str(session_id) {
            Ok(_) => checkout::outcome(&self.db, session_id).await?,
            Err(_) => None,
        };
        outcome.ok_or(AppError::NotFound(Resource::CheckoutSession))
    }

    /// A session of the sandbox provider (only while it is the provider) and its user.
    pub async fn sandbox_session(&self, id: &str) -> Result<(CheckoutSession, Option<User>), AppError> {
        if self.provider != PaymentsProvider::Sandbox || uuid::Uuid::parse_str(id).is_err() {
            return Err(AppError::NotFound(Resource::CheckoutSession));
        }
        let session = checkout::find_session(&self.db, id)
            .await?
            .ok_or(AppError::NotFound(Resource::CheckoutSession))?;
        let user = match &session.user_id {
            Some(user_id) => self.users.find(user_id).await?,
            None => None,
        };
        Ok((session, user))
    }

    /// The sandbox's test page pays (or fails) the session through the path a provider's webhook
    /// takes; where the person goes next.
    pub async fn complete_sandbox(&self, id: &str, pay: bool) -> Result<String, AppError> {
        let (session, user) = self.sandbox_session(id).await?;
        let completed =
            checkout::complete_session(&self.db, &session.id, pay, &ProviderIds::default()).await?;
        Ok(match (&user, completed.status == "paid") {
            (Some(user), true) => self.success_url(user, Some(&session.id)),
            (Some(user), false) => self.checkout_page(user),
            (None, _) => format!("{}/checkout", self.public_url),
        })
    }
}
