//! Media a user sent (voice notes, images) from the Cloud API: the media id gives a short-lived
//! URL, and the URL the bytes, both with the access token.

use std::time::Duration;

use serde::Deserialize;

use crate::config::{Secret, WhatsAppConfig};

/// Downloaded media.
#[derive(Clone, Debug)]
pub struct Media {
    pub bytes: Vec<u8>,
    pub mime_type: String,
}

#[derive(Clone)]
pub struct MediaClient {
    http: reqwest::Client,
    graph_url: String,
    token: Secret,
}

#[derive(Deserialize)]
struct MediaUrl {
    url: String,
    #[serde(default)]
    mime_type: String,
}

/// Voice notes are short; anything larger is not downloaded.
const MAX_MEDIA_BYTES: usize = 16 * 1024 * 1024;

impl MediaClient {
    /// Only in cloud mode, where there is a token.
    pub fn new(config: &WhatsAppConfig) -> Option<Self> {
        let token = config.access_token.clone()?;
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(30))
            .build()
            .ok()?;
        Some(Self { http, graph_url: config.graph_url.clone(), token })
    }

    pub async fn download(&self, media_id: &str) -> anyhow::Result<Media> {
        if !media_id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            anyhow::bail!("an invalid media id");
        }
        let located: MediaUrl = self
            .http
            .get(format!("{}/{media_id}", self.graph_url))
            .bearer_auth(self.token.expose())
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        let response =
            self.http.get(&located.url).bearer_auth(self.token.expose()).send().await?.error_for_status()?;
        let bytes = response.bytes().await?;
        if bytes.len() > MAX_MEDIA_BYTES {
            anyhow::bail!("media larger than {MAX_MEDIA_BYTES} bytes");
        }
        Ok(Media { bytes: bytes.to_vec(), mime_type: located.mime_type })
    }
}
