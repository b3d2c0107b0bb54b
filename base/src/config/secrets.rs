//! What production asks of its secrets: long enough, random-looking (not a placeholder, a run of
//! the alphabet or of a keyboard row, nor a handful of characters repeated), each used for one
//! thing only (a metrics token equal to the signing key would hand the key to whoever scrapes
//! `/metrics`), and Stripe's live keys, not its test mode's (test cards would buy real Pro).

use super::{Config, ConfigError, MIN_SECRET_BYTES, Secret};

/// The shortest `WHATSAPP_VERIFY_TOKEN` production accepts: we choose it (Meta only echoes it
/// back in the webhook's handshake), so it can be as long as any.
pub(super) const MIN_VERIFY_TOKEN_CHARS: usize = 16;

impl Config {
    pub(super) fn refuse_weak_secrets(&self) -> Result<(), ConfigError> {
        if !varied_enough(self.jwt_secret.expose()) || predictable(self.jwt_secret.expose()) {
            return Err(ConfigError(
                "JWT_SECRET is too predictable for production (a placeholder, an example, a run of the alphabet \
                 or of a keyboard row): use a random one (openssl rand -base64 48)"
                    .into(),
            ));
        }
        if let Some(token) = &self.metrics_token {
            if token.expose().len() < MIN_SECRET_BYTES {
                return Err(ConfigError(format!(
                    "METRICS_TOKEN must be at least {MIN_SECRET_BYTES} bytes in production (it guards /metrics): \
                     use a random one (openssl rand -base64 32)"
                )));
            }
            if !varied_enough(token.expose()) || predictable(token.expose()) {
                return Err(ConfigError(
                    "METRICS_TOKEN is too predictable for production (a placeholder, a run or a few characters \
                     repeated): use a random one (openssl rand -base64 32)"
                        .into(),
                ));
            }
        }
        let given = [
            ("WHATSAPP_APP_SECRET", self.whatsapp.app_secret.as_ref()),
            ("STRIPE_WEBHOOK_SECRET", self.stripe.as_ref().map(|s| &s.webhook_secret)),
        ];
        for (name, secret) in given {
            let Some(secret) = secret else { continue };
            if secret.expose().len() < MIN_SECRET_BYTES {
                return Err(ConfigError(format!(
                    "{name} must be at least {MIN_SECRET_BYTES} bytes in production: copy the whole secret"
                )));
            }
            if low_complexity(secret.expose()) {
                return Err(ConfigError(format!(
                    "{name} is no provider's secret (a placeholder, a run or a few characters repeated): copy \
                     the one the provider shows"
                )));
            }
        }
        if let Some(token) = &self.whatsapp.verify_token
            && (token.expose().chars().count() < MIN_VERIFY_TOKEN_CHARS || low_complexity(token.expose()))
        {
            return Err(ConfigError(format!(
                "WHATSAPP_VERIFY_TOKEN must be at least {MIN_VERIFY_TOKEN_CHARS} random characters in production \
                 (anyone who knows it can answer Meta's handshake for our webhook): use openssl rand -hex 16"
            )));
        }
        self.refuse_a_secret_used_twice()?;
        self.refuse_stripe_test_keys()
    }

    /// One value in two places: whoever holds the weaker one (a metrics scraper, Meta's app
    /// dashboard, the Stripe account) holds the other too.
    fn refuse_a_secret_used_twice(&self) -> Result<(), ConfigError> {
        let secrets: Vec<(&str, &Secret)> = [
            ("JWT_SECRET", Some(&self.jwt_secret)),
            ("METRICS_TOKEN", self.metrics_token.as_ref()),
            ("WHATSAPP_APP_SECRET", self.whatsapp.app_secret.as_ref()),
            ("WHATSAPP_VERIFY_TOKEN", self.whatsapp.verify_token.as_ref()),
            ("WHATSAPP_ACCESS_TOKEN", self.whatsapp.access_token.as_ref()),
            ("STRIPE_SECRET_KEY", self.stripe.as_ref().map(|s| &s.secret_key)),
            ("STRIPE_WEBHOOK_SECRET", self.stripe.as_ref().map(|s| &s.webhook_secret)),
            ("LLM_API_KEY", self.llm.as_ref().and_then(|l| l.api_key.as_ref())),
        ]
        .into_iter()
        .filter_map(|(name, secret)| secret.map(|s| (name, s)))
        .collect();
        for (at, (name, secret)) in secrets.iter().enumerate() {
            if let Some((other, _)) = secrets[at + 1..].iter().find(|(_, s)| s.expose() == secret.expose()) {
                return Err(ConfigError(format!(
                    "{name} and {other} are the same value: each secret must be used for one thing only \
                     (whoever holds one would hold the other)"
                )));
            }
        }
        Ok(())
    }

    /// Stripe's test mode: its keys say so (`sk_test_`, `rk_test_`; "API keys",
    /// <https://docs.stripe.com/keys>). A webhook signing secret (`whsec_`) looks the same in
    /// both modes, so it cannot be told apart here.
    fn refuse_stripe_test_keys(&self) -> Result<(), ConfigError> {
        let Some(stripe) = &self.stripe else { return Ok(()) };
        let key = stripe.secret_key.expose();
        if key.starts_with("sk_test_") || key.starts_with("rk_test_") {
            return Err(ConfigError(
                "STRIPE_SECRET_KEY is a test-mode key (sk_test_/rk_test_) in production: test cards would buy \
                 real Pro. Use the live key (sk_live_/rk_live_)"
                    .into(),
            ));
        }
        Ok(())
    }
}

/// A provider's secret nobody generated: a placeholder, mostly a run (three steps in four to a
/// neighbour: "abab…", "0123…"), or a handful of characters (under 2,5 bits a character: "aaaa…" has
/// 0, "abcdabcd…" 2). Random hex (Meta's app secret: 32 hex digits) steps to a neighbour about one
/// time in seven and carries about 3,7 bits a character; of 100,000 random 32-digit hex secrets the
/// most neighbourly had 48 % and the least varied 2,89 bits, so these floors refuse none.
fn low_complexity(secret: &str) -> bool {
    placeholder(secret) || neighbour_share(secret) >= 0.75 || bits_per_char(secret) < 2.5
}

/// A secret anyone could guess: a placeholder or one of the examples people copy (our own tests',
/// scripts' and docs' included: they all say "secret" or "long-enough"), or mostly a run of the
/// alphabet, the digits or a keyboard row ("abcdefghijklmnopqrstuvwxyz012345", "qwertyuiop…"). A
/// random secret of the base64 alphabet steps to a neighbour about one time in sixteen; these,
/// nearly always.
pub(super) fn predictable(secret: &str) -> bool {
    placeholder(secret) || neighbour_share(secret) >= 0.4
}

/// A placeholder or an example's word inside the secret.
fn placeholder(secret: &str) -> bool {
    const PLACEHOLDERS: [&str; 7] =
        ["secret", "changeme", "change-me", "example", "password", "placeholder", "long-enough"];
    let lower = secret.to_lowercase();
    PLACEHOLDERS.iter().any(|word| lower.contains(word))
}

/// The share of steps from one character to the next that go to a neighbour: the next or last in
/// the alphabet or the digits, or the key beside it on a keyboard row (1 for under two characters).
fn neighbour_share(secret: &str) -> f64 {
    const ROWS: [&str; 4] = ["`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "zxcvbnm,./"];
    let place = |c: char| ROWS.iter().enumerate().find_map(|(row, keys)| keys.find(c).map(|at| (row, at)));
    let chars: Vec<char> = secret.to_lowercase().chars().collect();
    if chars.len() < 2 {
        return 1.0;
    }
    let neighbours = chars
        .windows(2)
        .filter(|pair| {
            let (a, b) = (pair[0], pair[1]);
            let in_sequence = (a as i64 - b as i64).abs() == 1;
            let on_the_keyboard = matches!((place(a), place(b)), (Some((r1, i1)), Some((r2, i2))) if r1 == r2 && i1.abs_diff(i2) == 1);
            in_sequence || on_the_keyboard
        })
        .count();
    neighbours as f64 / (chars.len() - 1) as f64
}

/// The Shannon entropy of a text's characters, in bits a character.
fn bits_per_char(secret: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    for c in secret.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    let n = secret.chars().count() as f64;
    counts
        .values()
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum()
}

/// A secret with enough different characters to be random (a generated one of 32 bytes has dozens;
/// "aaaa…" or "1234…1234" has a handful), estimated as the Shannon entropy of its characters: at
/// least 3.5 bits per character and 128 bits in all.
fn varied_enough(secret: &str) -> bool {
    let per_char = bits_per_char(secret);
    per_char >= 3.5 && per_char * secret.chars().count() as f64 >= 128.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random hex of 32 digits, as Meta's app secrets are: always of enough complexity.
    #[test]
    fn random_hex_secrets_are_never_taken_for_placeholders() {
        use rand::Rng;
        let mut rng = rand::rng();
        for _ in 0..2_000 {
            let hex: String =
                (0..32).map(|_| char::from_digit(rng.random_range(0..16), 16).unwrap()).collect();
            assert!(!low_complexity(&hex), "{hex}");
        }
    }

    #[test]
    fn placeholders_runs_and_repeats_are_low_complexity() {
        for weak in [
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "changeme-changeme-changeme-changeme",
            "abababababababababababababababab",
            "0123456789abcdef0123456789abcdef",
            "abcdabcdabcdabcdabcdabcdabcdabcd",
        ] {
            assert!(low_complexity(weak), "{weak}");
        }
    }
}
