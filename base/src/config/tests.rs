//! The configuration's rules: embedded defaults that run everything locally, and what production
//! refuses, each refusal naming its variable.

use std::time::Duration;

use super::*;

fn config(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
    let mut map: HashMap<String, String> =
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    map.entry("JWT_SECRET".into()).or_insert_with(|| "x".repeat(40));
    Config::from_source(&map)
}

const CLOUD: [(&str, &str); 6] = [
    ("WHATSAPP_MODE", "cloud"),
    ("WHATSAPP_BUSINESS_NUMBER", "+55 11 3456-7890"),
    ("WHATSAPP_PHONE_NUMBER_ID", "123"),
    ("WHATSAPP_ACCESS_TOKEN", "token"),
    ("WHATSAPP_APP_SECRET", "7f3a9c1e84b2d6f05e9a3c7b1d8f4e26"),
    ("WHATSAPP_VERIFY_TOKEN", "c41d9e7a2f6b8053"),
];
const STRIPE: [(&str, &str); 5] = [
    ("PAYMENTS_PROVIDER", "stripe"),
    ("STRIPE_SECRET_KEY", "sk_live_x"),
    ("STRIPE_WEBHOOK_SECRET", "whsec_9Kq2xV7mT4pL8sW1zR6nB3cY5hJ0dF2g"),
    ("STRIPE_PRICE_PRO_MONTHLY", "price_m"),
    ("STRIPE_PRICE_PRO_YEARLY", "price_y"),
];

/// A production configuration that starts, with `changes` applied.
fn production(changes: &[(&'static str, &'static str)]) -> Result<Config, ConfigError> {
    let mut pairs: HashMap<&str, &str> = [
        ("SOCIO_ENV", "production"),
        ("PUBLIC_URL", "https://socio.app"),
        ("SOCIO_ADDR", "0.0.0.0:8080"),
        ("JWT_SECRET", "q8Vd2kZ7xLr4Tn0pWb9Ys3Hc6Fm1Ja5Ge8Uo2Ri7Ke"),
    ]
    .into_iter()
    .chain(CLOUD)
    .chain(STRIPE)
    .collect();
    pairs.extend(changes.iter().copied());
    config(&pairs.into_iter().collect::<Vec<_>>())
}

#[test]
fn production_refuses_settings_an_attacker_could_use() {
    let refused = |changes: &[(&'static str, &'static str)], names: &str| {
        let err = production(changes).unwrap_err();
        assert!(err.0.contains(names), "{changes:?}: {err}");
    };
    refused(&[("TRUSTED_PROXIES", "0.0.0.0/0")], "TRUSTED_PROXIES");
    refused(&[("TRUSTED_PROXIES", "10.0.0.0/8, ::/0")], "TRUSTED_PROXIES");
    refused(&[("WHATSAPP_GRAPH_URL", "http://graph.facebook.com/v23.0")], "WHATSAPP_GRAPH_URL");
    refused(&[("STRIPE_API_URL", "http://api.stripe.com")], "STRIPE_API_URL");
    refused(&[("LLM_BASE_URL", "http://llm.example.com/v1")], "LLM_BASE_URL");
    refused(&[("JWT_SECRET", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")], "JWT_SECRET");
    refused(&[("JWT_SECRET", "12341234123412341234123412341234")], "JWT_SECRET");
    // Issue 42: a run of the alphabet, a keyboard row, the examples our own files use.
    refused(&[("JWT_SECRET", "abcdefghijklmnopqrstuvwxyz012345")], "JWT_SECRET");
    refused(&[("JWT_SECRET", "qwertyuiopasdfghjklzxcvbnm1234567890QWERTY")], "JWT_SECRET");
    refused(&[("JWT_SECRET", "test-secret-that-is-long-enough-0123456789")], "JWT_SECRET");
    refused(&[("JWT_SECRET", "e2e-secret-that-is-long-enough-0123456789")], "JWT_SECRET");
    refused(&[("JWT_SECRET", "ChangeMe-ChangeMe-ChangeMe-ChangeMe-2026")], "JWT_SECRET");
    refused(&[("TRUSTED_PROXIES", "0.0.0.0/1,128.0.0.0/1")], "TRUSTED_PROXIES");
    refused(
        &[("TRUSTED_PROXIES", "0.0.0.0/2,64.0.0.0/2,128.0.0.0/2,192.0.0.0/3,224.0.0.0/3")],
        "TRUSTED_PROXIES",
    );
    refused(&[("TRUSTED_PROXIES", "2000::/3")], "TRUSTED_PROXIES");
    refused(&[("METRICS_TOKEN", "a")], "METRICS_TOKEN");
    refused(&[("METRICS_TOKEN", "0123456789abcdef0123456789abcde")], "METRICS_TOKEN");
    refused(&[("PUBLIC_URL", "https://localhost.")], "PUBLIC_URL");
    refused(&[("PUBLIC_URL", "https://socio.app.")], "PUBLIC_URL");
    let without_verify_token = {
        let mut pairs: Vec<(&str, &str)> = vec![
            ("SOCIO_ENV", "production"),
            ("PUBLIC_URL", "https://socio.app"),
            ("SOCIO_ADDR", "0.0.0.0:8080"),
            ("JWT_SECRET", "q8Vd2kZ7xLr4Tn0pWb9Ys3Hc6Fm1Ja5Ge8Uo2Ri7Ke"),
        ];
        pairs.extend(CLOUD.iter().filter(|(k, _)| *k != "WHATSAPP_VERIFY_TOKEN"));
        pairs.extend(STRIPE);
        config(&pairs).unwrap_err()
    };
    assert!(without_verify_token.0.contains("WHATSAPP_VERIFY_TOKEN"), "{without_verify_token}");
    // What a real deployment uses still starts.
    let ok = production(&[
        ("TRUSTED_PROXIES", "10.0.0.0/8"),
        ("LLM_BASE_URL", "http://127.0.0.1:11434/v1"),
        ("PUBLIC_URL", "HTTPS://Socio.App"),
    ])
    .unwrap();
    assert!(ok.serves_https(), "an upper-case scheme is still https");
}

#[test]
fn embedded_defaults_run_everything_locally() {
    let c = config(&[]).unwrap();
    assert_eq!(c.addr.to_string(), "127.0.0.1:8080");
    assert_eq!(c.database_url, "sqlite://data/socio.db");
    assert_eq!(c.whatsapp.mode, WhatsAppMode::Dev);
    assert_eq!(c.payments, PaymentsProvider::Sandbox);
    assert!(c.llm.is_none());
    assert_eq!(c.whatsapp.batch_window, Duration::from_secs(4));
}

#[test]
fn without_public_url_links_follow_the_address_served() {
    let on_3000 = config(&[("SOCIO_ADDR", "127.0.0.1:3000")]).unwrap();
    assert_eq!(on_3000.public_url, "http://localhost:3000");
    assert_eq!(super::local_url("0.0.0.0:9090".parse().unwrap()), "http://localhost:9090");
    assert_eq!(super::local_url("192.168.0.10:8080".parse().unwrap()), "http://192.168.0.10:8080");
    let named = config(&[("SOCIO_ADDR", "127.0.0.1:3000"), ("PUBLIC_URL", "https://socio.app/")]).unwrap();
    assert_eq!(named.public_url, "https://socio.app", "PUBLIC_URL wins when given");
}

#[test]
fn trusted_proxies_are_addresses_or_networks_and_anything_else_is_refused_by_name() {
    let c = config(&[("TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1")]).unwrap();
    assert_eq!(c.trusted_proxies.len(), 2);
    assert!(config(&[]).unwrap().trusted_proxies.is_empty());
    let err = config(&[("TRUSTED_PROXIES", "10.0.0.0/8, balancer")]).unwrap_err();
    assert!(err.0.contains("TRUSTED_PROXIES") && err.0.contains("balancer"), "{err}");
}

#[test]
fn production_refuses_whatsapp_dev_mode_naming_the_variable() {
    let err = config(&[("SOCIO_ENV", "production")]).unwrap_err();
    assert!(err.0.contains("WHATSAPP_MODE"), "{err}");
}

#[test]
fn production_refuses_sandbox_payments_naming_the_variable() {
    let mut pairs = vec![("SOCIO_ENV", "production")];
    pairs.extend(CLOUD);
    let err = config(&pairs).unwrap_err();
    assert!(err.0.contains("PAYMENTS_PROVIDER"), "{err}");
}

#[test]
fn production_refuses_a_missing_or_short_jwt_secret() {
    let map: HashMap<String, String> =
        [("SOCIO_ENV", "production")].iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    assert!(Config::from_source(&map).unwrap_err().0.contains("JWT_SECRET"));
    let err = config(&[("SOCIO_ENV", "production"), ("JWT_SECRET", "short")]).unwrap_err();
    assert!(err.0.contains("JWT_SECRET"), "{err}");
}

#[test]
fn cloud_mode_requires_its_credentials() {
    let err = config(&[("WHATSAPP_MODE", "cloud")]).unwrap_err();
    assert!(err.0.contains("WHATSAPP_BUSINESS_NUMBER"), "every wa.me link needs the real number: {err}");
    let err =
        config(&[("WHATSAPP_MODE", "cloud"), ("WHATSAPP_BUSINESS_NUMBER", "551134567890")]).unwrap_err();
    assert!(err.0.contains("WHATSAPP_PHONE_NUMBER_ID"), "{err}");
}

#[test]
fn production_starts_with_real_providers_and_a_strong_secret() {
    assert!(production(&[]).unwrap().is_production());
    // What a real deployment sets: private ranges for its balancers, a random metrics token, a
    // secret from `openssl rand -base64 48`.
    let real = production(&[
        ("TRUSTED_PROXIES", "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7"),
        ("METRICS_TOKEN", "Zr3vQ9xK2mLp8sT5wY1uB7nE4cH6jD0aF2gR9kW3"),
        ("JWT_SECRET", "3JmX9pQ/vT+2kLw8ZrB5nYc1Hs6Ue4Ag7DfWqN0xRtVbMz2PlKo8GyJiCe5Sa1Uh"),
    ]);
    assert!(real.is_ok(), "{:?}", real.err());
}

#[test]
fn production_refuses_an_http_or_local_public_url_naming_the_variable() {
    for url in [
        "http://socio.app",
        "https://localhost:8080",
        "https://127.0.0.1",
        "https://app.localhost",
        "https://[::1]",
    ] {
        let err = production(&[("PUBLIC_URL", url)]).unwrap_err();
        assert!(err.0.contains("PUBLIC_URL"), "{url}: {err}");
    }
}

#[test]
fn production_refuses_short_webhook_secrets_naming_the_variable() {
    let err = production(&[("WHATSAPP_APP_SECRET", "secret")]).unwrap_err();
    assert!(err.0.contains("WHATSAPP_APP_SECRET"), "{err}");
    let err = production(&[("STRIPE_WEBHOOK_SECRET", "whsec_short")]).unwrap_err();
    assert!(err.0.contains("STRIPE_WEBHOOK_SECRET"), "{err}");
    let err = production(&[("JWT_SECRET", "thirty-one-bytes-is-not-enough")]).unwrap_err();
    assert!(err.0.contains("JWT_SECRET"), "{err}");
}

#[test]
fn the_dev_simulator_listens_on_loopback_only_in_any_environment() {
    let err = config(&[("SOCIO_ADDR", "0.0.0.0:8080")]).unwrap_err();
    assert!(err.0.contains("WHATSAPP_MODE") && err.0.contains("SOCIO_ADDR"), "{err}");
    assert!(config(&[("SOCIO_ADDR", "[::1]:8080")]).is_ok());
    let mut cloud = vec![("SOCIO_ADDR", "0.0.0.0:8080")];
    cloud.extend(CLOUD);
    assert!(config(&cloud).is_ok(), "the Cloud API may listen anywhere");
}

#[test]
fn secrets_never_show_in_debug_output() {
    let c = config(&[("JWT_SECRET", "a-very-long-secret-that-must-not-leak-0123")]).unwrap();
    assert!(!format!("{c:?}").contains("must-not-leak"));
}

#[test]
fn unknown_database_scheme_is_refused() {
    assert!(config(&[("DATABASE_URL", "mysql://x")]).unwrap_err().0.contains("DATABASE_URL"));
}

/// One derivation for every use of the secret, the same key as before it was shared (so codes and
/// links signed before still hold): HMAC-SHA256("socio links v1") under the secret, worked out
/// with Python's `hmac.new(secret, b"socio links v1", hashlib.sha256).hexdigest()`.
#[test]
fn each_use_of_the_secret_has_its_own_key() {
    let secret = Secret::new("a test secret that is long enough to use");
    assert_eq!(
        hex::encode(secret.purpose_key("socio links v1")),
        "7161ee6232a538efe1476131432c85eab0c63446c3e62ca64abf408a2b931f16"
    );
    assert_ne!(secret.purpose_key("socio login codes"), secret.purpose_key("socio data exports"));
}

#[test]
fn production_refuses_stripe_test_keys_naming_the_variable() {
    for key in ["sk_test_51Abc", "rk_test_51Abc"] {
        let err = production(&[("STRIPE_SECRET_KEY", key)]).unwrap_err();
        assert!(err.0.contains("STRIPE_SECRET_KEY") && err.0.contains("test"), "{key}: {err}");
    }
    assert!(production(&[("STRIPE_SECRET_KEY", "rk_live_51Abc")]).is_ok());
}

#[test]
fn production_refuses_one_secret_used_for_two_things() {
    const JWT: &str = "q8Vd2kZ7xLr4Tn0pWb9Ys3Hc6Fm1Ja5Ge8Uo2Ri7Ke";
    for (name, other) in [("METRICS_TOKEN", "JWT_SECRET"), ("WHATSAPP_APP_SECRET", "JWT_SECRET")] {
        let err = production(&[(name, JWT)]).unwrap_err();
        assert!(err.0.contains(name) && err.0.contains(other), "{name}: {err}");
    }
    let err = production(&[("METRICS_TOKEN", "whsec_9Kq2xV7mT4pL8sW1zR6nB3cY5hJ0dF2g")]).unwrap_err();
    assert!(err.0.contains("METRICS_TOKEN") && err.0.contains("STRIPE_WEBHOOK_SECRET"), "{err}");
}

#[test]
fn production_refuses_low_complexity_secrets_and_a_short_verify_token() {
    let refused = |changes: &[(&'static str, &'static str)], name: &str| {
        let err = production(changes).unwrap_err();
        assert!(err.0.contains(name), "{changes:?}: {err}");
    };
    refused(&[("WHATSAPP_APP_SECRET", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")], "WHATSAPP_APP_SECRET");
    refused(&[("WHATSAPP_APP_SECRET", "changeme-changeme-changeme-changeme")], "WHATSAPP_APP_SECRET");
    refused(&[("METRICS_TOKEN", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")], "METRICS_TOKEN");
    refused(&[("METRICS_TOKEN", "abcdefghijklmnopqrstuvwxyz0123456789")], "METRICS_TOKEN");
    refused(&[("WHATSAPP_VERIFY_TOKEN", "x")], "WHATSAPP_VERIFY_TOKEN");
    refused(&[("WHATSAPP_VERIFY_TOKEN", "aaaaaaaaaaaaaaaaaaaa")], "WHATSAPP_VERIFY_TOKEN");
    refused(
        &[("STRIPE_WEBHOOK_SECRET", "whsec_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")],
        "STRIPE_WEBHOOK_SECRET",
    );
}

#[test]
fn production_refuses_a_public_url_that_is_loopback_in_disguise_or_carries_more_than_an_address() {
    for url in [
        "https://[::ffff:127.0.0.1]",
        "https://[::ffff:0.0.0.0]",
        "https://user:pass@socio.app",
        "https://user@socio.app",
        "https://socio.app/app",
        "https://socio.app/?next=evil",
        "https://socio.app/#x",
    ] {
        let err = production(&[("PUBLIC_URL", url)]).unwrap_err();
        assert!(err.0.contains("PUBLIC_URL"), "{url}: {err}");
    }
    assert!(production(&[("PUBLIC_URL", "https://socio.app:8443/")]).is_ok());
}

#[test]
fn production_refuses_time_limits_and_caps_past_their_bounds_naming_the_variable() {
    for (name, value) in [
        ("HTTP_BODY_TIMEOUT_MS", "86400000"),
        ("HTTP_FIRST_BYTES_TIMEOUT_MS", "86400000"),
        ("HTTP_HEADERS_TIMEOUT_MS", "60001"),
        ("HTTP_IDLE_TIMEOUT_MS", "86400000"),
        ("HTTP_MAX_CONNECTIONS", "100000000"),
        ("HTTP_MAX_CONNECTIONS_PER_ADDRESS", "100000000"),
        ("HTTP2_MAX_STREAMS", "5000"),
        ("WHATSAPP_BATCH_WINDOW_MS", "99999999999"),
        ("WHATSAPP_BATCH_MAX_MS", "86400000"),
        ("SOCIO_JOB_LEASE_MS", "86400000"),
    ] {
        let err = production(&[(name, value)]).unwrap_err();
        assert!(err.0.contains(name), "{name}={value}: {err}");
    }
    // At the bounds, and in development whatever the value, it starts.
    let at_bounds = production(&[
        ("HTTP_BODY_TIMEOUT_MS", "600000"),
        ("HTTP_MAX_CONNECTIONS", "1000000"),
        ("WHATSAPP_BATCH_WINDOW_MS", "60000"),
    ]);
    assert!(at_bounds.is_ok(), "{:?}", at_bounds.err());
    assert!(config(&[("HTTP_BODY_TIMEOUT_MS", "86400000")]).is_ok());
}

#[test]
fn production_refuses_postgres_without_tls_to_another_machine() {
    for url in [
        "postgres://socio:pw@db.internal:5432/socio?sslmode=disable",
        "postgresql://socio@10.0.0.5/socio?sslmode=allow",
    ] {
        let err = production(&[("DATABASE_URL", url)]).unwrap_err();
        assert!(err.0.contains("DATABASE_URL") && err.0.contains("sslmode"), "{url}: {err}");
    }
    for url in [
        "postgres://socio:pw@db.internal:5432/socio?sslmode=require",
        "postgres://socio:pw@db.internal/socio",
        "postgres://postgres@127.0.0.1:5432/socio?sslmode=disable",
        "postgres://postgres@localhost/socio?sslmode=disable",
    ] {
        let started = production(&[("DATABASE_URL", url)]);
        assert!(started.is_ok(), "{url}: {:?}", started.err());
    }
}

#[test]
fn a_development_server_can_live_on_another_day_and_production_never() {
    // 2027-01-05 09:00 in São Paulo (UTC−3) is 12:00 UTC: 1_799_150_400_000 ms.
    let day = config(&[("SOCIO_DEV_CLOCK", "2027-01-05")]).unwrap();
    let read = day.clock.now_ms();
    assert!((1_799_150_400_000..1_799_150_400_000 + 60_000).contains(&read), "{read}");
    assert_eq!(day.clock.today().iso(), "2027-01-05");
    let instant = config(&[("SOCIO_DEV_CLOCK", "2026-12-31T23:30:00-03:00")]).unwrap();
    assert_eq!(instant.clock.today().iso(), "2026-12-31");

    let err = config(&[("SOCIO_DEV_CLOCK", "05/01/2027")]).unwrap_err();
    assert!(err.0.contains("SOCIO_DEV_CLOCK"), "{err}");
    let err = production(&[("SOCIO_DEV_CLOCK", "2027-01-05")]).unwrap_err();
    assert!(err.0.contains("SOCIO_DEV_CLOCK") && err.0.contains("production"), "{err}");
}

#[test]
fn an_instant_written_by_the_clock_is_read_back_as_the_same_instant() {
    let at = 1_799_150_400_123;
    assert_eq!(crate::clock::rfc3339(at), "2027-01-05T12:00:00.123Z");
    let read = config(&[("SOCIO_DEV_CLOCK", &crate::clock::rfc3339(at))]).unwrap().clock.now_ms();
    assert!((at..at + 60_000).contains(&read), "{read}");
}
