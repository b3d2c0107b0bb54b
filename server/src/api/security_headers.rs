//! The headers every response carries so that a browser holds the app to what it needs: a
//! Content-Security-Policy (scripts, styles, fonts and calls from this origin only, no inline
//! script, never framed), `nosniff`, a Referrer-Policy that keeps our addresses (which may carry
//! phone numbers) to ourselves, and — when `PUBLIC_URL` is https — Strict-Transport-Security.

use axum::{extract::Request, middleware::Next, response::Response};
use http::{HeaderName, HeaderValue, header};

/// What the app loads: its own scripts (no inline or evaluated script), its own styles plus the
/// inline `<style>` elements its dialog and toast components insert at run time, images and fonts
/// from itself or `data:` (Vite inlines small ones), calls to itself only.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; \
     connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Two years, the preload list's minimum.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000; includeSubDomains";

/// The layer's function; `https` when the product is served over it (`PUBLIC_URL`).
pub async fn add(https: bool, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let mut set = |name: HeaderName, value: &'static str| {
        headers.entry(name).or_insert(HeaderValue::from_static(value));
    };
    set(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "same-origin");
    set(header::X_FRAME_OPTIONS, "DENY");
    if https {
        set(header::STRICT_TRANSPORT_SECURITY, STRICT_TRANSPORT_SECURITY);
    }
    response
}
