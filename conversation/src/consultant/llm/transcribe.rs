//! Voice notes to words: speech to text over the OpenAI-compatible `/audio/transcriptions`
//! endpoint, when a transcription model is configured.

use std::time::Duration;

use serde_json::Value as Json;

use crate::config::LlmConfig;

/// Speech to text over the OpenAI-compatible `/audio/transcriptions` endpoint.
#[derive(Clone)]
pub struct Transcriber {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<crate::config::Secret>,
    model: String,
}

impl Transcriber {
    /// Only when a transcription model is configured.
    pub fn new(config: &LlmConfig) -> Option<Self> {
        let model = config.transcribe_model.clone()?;
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(config.timeout)
            .build()
            .ok()?;
        Some(Self { http, base_url: config.base_url.clone(), api_key: config.api_key.clone(), model })
    }

    pub async fn transcribe(&self, audio: Vec<u8>, mime_type: &str) -> anyhow::Result<String> {
        let extension = if mime_type.contains("mpeg") {
            "mp3"
        } else if mime_type.contains("mp4") {
            "m4a"
        } else {
            "ogg"
        };
        let part = reqwest::multipart::Part::bytes(audio)
            .file_name(format!("voice.{extension}"))
            .mime_str(mime_type.split(';').next().unwrap_or("audio/ogg").trim())?;
        let form = reqwest::multipart::Form::new().text("model", self.model.clone()).part("file", part);
        let mut request = self.http.post(format!("{}/audio/transcriptions", self.base_url)).multipart(form);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key.expose());
        }
        let answer: Json = request.send().await?.error_for_status()?.json().await?;
        let text = answer["text"].as_str().map(str::trim).unwrap_or_default().to_owned();
        anyhow::ensure!(!text.is_empty(), "an empty transcription");
        Ok(text.chars().take(4000).collect())
    }
}
