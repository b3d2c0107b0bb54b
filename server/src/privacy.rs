//! The LGPD rights of art. 18 as a service: a complete copy of one person's data (asked by an
//! admin or by the person) behind a signed link that expires in 15 minutes, serves once, only
//! while the session and role that asked for it stand, and only ever that person's copy, and the erasure of everything personal, each recorded in the audit log in
//! the same transaction as what it records. The export adapter formats the copy; the reads, the
//! writes and the link's signature are here. It sits beside `erasure`, above the domains it
//! gathers.

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub use crate::identity::export_links::{Asker, LinkClaim};
use crate::{
    audit::AuditLog,
    billing::subscriptions::{self, Subscriptions},
    config::Secret,
    conversation::messages::{Message, Messages},
    db::Db,
    erasure,
    error::AppError,
    identity::{
        export_links::ExportLinks,
        users::{User, Users},
    },
    plan::{
        Plans,
        store::Plan,
        tracking::{
            Results,
            results::{self, MonthResult, PlanForecast},
        },
    },
};

pub use crate::erasure::Request;

/// Everything Sócio keeps about one person, gathered at `at` (Unix ms).
pub struct Collected {
    pub user: User,
    pub subscriptions: Vec<subscriptions::Record>,
    pub plan: Option<Plan>,
    pub messages: Vec<Message>,
    pub months: Vec<MonthResult>,
    pub forecast: Option<PlanForecast>,
    pub at: i64,
}

/// How long an export's link serves the copy.
pub const LINK_TTL_MS: i64 = 15 * 60 * 1000;

#[derive(Clone)]
pub struct Privacy {
    db: Db,
    plans: Plans,
    messages: Messages,
    results: Results,
    users: Users,
    subscriptions: Subscriptions,
    audit: AuditLog,
    erasure: erasure::Erasure,
    links: ExportLinks,
    /// The exports' links: signed with a key derived from the secret, on the public address.
    key: Vec<u8>,
    public_url: String,
}

impl Privacy {
    pub fn new(db: Db, plans: Plans, secret: &Secret, public_url: &str) -> Self {
        Self {
            messages: Messages::new(db.clone()),
            results: Results::new(plans.clone()),
            users: Users::new(db.clone()),
            subscriptions: Subscriptions::new(db.clone()),
            audit: AuditLog::new(db.clone()),
            erasure: erasure::Erasure::new(db.clone()),
            links: ExportLinks::new(db.clone()),
            db,
            plans,
            key: secret.purpose_key("socio data exports"),
            public_url: public_url.to_owned(),
        }
    }

    /// Records that `by` asked for a copy of `user_id`'s data and gives the link to it, valid
    /// [`LINK_TTL_MS`] from now, once, and only while `asker`'s session and role stand; and until when.
    pub async fn export_link(
        &self,
        user_id: &str,
        by: &Request<'_>,
        asker: &Asker<'_>,
    ) -> Result<(String, i64), AppError> {
        let expires = self.record_export(user_id, by).await? + LINK_TTL_MS;
        let link_id = uuid::Uuid::new_v4().simple().to_string();
        self.links.record(&link_id, user_id, asker, expires).await?;
        Ok((self.link(user_id, &link_id, expires), expires))
    }

    /// A link to the person's copy, naming its row, valid until `expires` (Unix ms).
    pub fn link(&self, user_id: &str, link_id: &str, expires: i64) -> String {
        format!(
            "{}/api/admin/exports/{user_id}?link={link_id}&expires={expires}&signature={}",
            self.public_url,
            self.signature(user_id, link_id, expires)
        )
    }

    /// Whether a link's signature is ours for this person, row and expiry (constant time).
    pub fn signed(&self, user_id: &str, link_id: &str, expires: i64, signature: &str) -> bool {
        let Ok(given) = hex::decode(signature) else { return false };
        self.mac(user_id, link_id, expires).verify_slice(&given).is_ok()
    }

    fn signature(&self, user_id: &str, link_id: &str, expires: i64) -> String {
        hex::encode(self.mac(user_id, link_id, expires).finalize().into_bytes())
    }

    /// The MAC of a link: the person, the link's row and the expiry, under the exports' key.
    fn mac(&self, user_id: &str, link_id: &str, expires: i64) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("any key length");
        mac.update(format!("{user_id}:{link_id}:{expires}").as_bytes());
        mac
    }

    /// Spends a signed link (`identity::export_links`).
    pub async fn claim_link(&self, link_id: &str, user_id: &str) -> Result<LinkClaim, AppError> {
        self.links.claim(link_id, user_id).await
    }

    /// Gives a claimed link back when its copy could not be built.
    pub async fn release_link(&self, link_id: &str) -> Result<(), AppError> {
        self.links.release(link_id).await
    }

    /// Now, by the server's clock (a link's expiry is counted from it).
    pub fn now_ms(&self) -> i64 {
        self.db.now_ms()
    }

    /// Records that `by` asked for a copy of `user_id`'s data; when it was recorded.
    async fn record_export(&self, user_id: &str, by: &Request<'_>) -> Result<i64, AppError> {
        self.audit.record(by.actor_id, by.action, user_id, by.detail).await
    }

    /// Erases the person and records who asked, in one transaction; false when there was none.
    pub async fn erase(&self, user_id: &str, by: &Request<'_>) -> Result<bool, AppError> {
        self.erasure.erase_recorded(user_id, by).await
    }

    /// The person's data; None when there is no such person.
    pub async fn collect(&self, user_id: &str) -> Result<Option<Collected>, AppError> {
        let db = &self.db;
        let Some(user) = self.users.find(user_id).await? else { return Ok(None) };
        let subscriptions = self.subscriptions.history(user_id).await?;
        let plan = self.plans.find(user_id).await?;
        let messages = self.messages.conversation(user_id).await?;
        let months = self.results.months(user_id).await?;
        let forecast = plan.as_ref().and_then(results::forecast);
        Ok(Some(Collected { user, subscriptions, plan, messages, months, forecast, at: db.now_ms() }))
    }
}
