//! The built React app (`web/dist`): `/` gets `index.html`, the landing page alone (no router, so it
//! loads light); any other path that is not a file gets `app.html`, the app, whose router shows the
//! page or its 404 — answered with HTTP 404 when the path is none of the app's routes
//! ([`APP_ROUTES`], kept equal to `web/src/app/routes.tsx` by a test). Hashed assets are cached for a year; the HTML never; a missing asset is a 404.
//! Files are served precompressed (the build writes `.br` and `.gz` beside them) to browsers that
//! accept it.

use std::path::{Path, PathBuf};

use axum::{
    body::Body,
    extract::Request,
    response::{Html, IntoResponse, Response},
};
use http::{HeaderValue, StatusCode, header};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

/// The app's routes (`web/src/app/routes.tsx`): a path is one when it equals a route or sits under
/// one that takes parameters.
pub const APP_ROUTES: &[(&str, bool)] = &[
    ("/checkout", true),
    ("/login", false),
    ("/success", false),
    ("/dashboard", false),
    ("/business-plan", false),
    ("/chat", false),
    ("/admin", false),
    ("/dev/whatsapp", false),
    ("/privacidade", false),
    ("/privacy", false),
    ("/termos", false),
    ("/terms", false),
    ("/lgpd", false),
    ("/gdpr", false),
];

/// Whether the router has a page for the path (else it shows its 404).
pub fn is_app_route(path: &str) -> bool {
    let path = path.trim_end_matches('/');
    APP_ROUTES.iter().any(|(route, with_parameters)| {
        path == *route
            || (*with_parameters && path.strip_prefix(route).is_some_and(|rest| rest.starts_with('/')))
    })
}

#[derive(Clone, Debug)]
pub struct WebApp {
    dir: PathBuf,
}

impl WebApp {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub async fn serve(&self, request: Request<Body>) -> Response {
        let app = self.dir.join("app.html");
        if !self.dir.join("index.html").is_file() || !app.is_file() {
            return not_built(&self.dir);
        }
        let path = request.uri().path().to_owned();
        let immutable = path.starts_with("/assets/");
        let files = ServeDir::new(&self.dir).precompressed_br().precompressed_gzip();
        let served = if immutable {
            // A missing asset is a 404: the app's HTML under an asset's name, cached for a year,
            // would break the page that asked for it until the cache forgot.
            files.oneshot(request).await
        } else {
            // `/` is the directory's index.html; everything else that is not a file, the app.
            let app = ServeFile::new(app).precompressed_br().precompressed_gzip();
            files.fallback(app).oneshot(request).await
        };
        let mut response = match served {
            Ok(response) => response.into_response(),
            Err(never) => match never {},
        };
        // The app under a path that is neither a file nor one of its routes: its 404 page, as a 404.
        if !immutable
            && path != "/"
            && !is_app_route(&path)
            && response.status() == StatusCode::OK
            && !self.is_file(&path)
        {
            *response.status_mut() = StatusCode::NOT_FOUND;
        }
        let cache = if immutable && response.status() == StatusCode::OK {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        // The body depends on Accept-Encoding (precompressed copies): caches must key on it.
        response.headers_mut().append(header::VARY, HeaderValue::from_static("accept-encoding"));
        response
    }

    /// Whether the path names a file of the build (never outside it).
    fn is_file(&self, path: &str) -> bool {
        let relative = path.trim_start_matches('/');
        !relative.split('/').any(|part| part == ".." || part.contains('\\'))
            && self.dir.join(relative).is_file()
    }
}

fn not_built(dir: &Path) -> Response {
    let body = format!(
        "<!doctype html><meta charset=utf-8><title>Sócio</title>\
         <p>The web app is not built yet (no <code>{}/index.html</code> and <code>app.html</code>). \
         Run <code>make run</code> \
         or <code>make build</code>. The API is up under <code>/api</code>.</p>",
        dir.display()
    );
    (StatusCode::SERVICE_UNAVAILABLE, Html(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_knows_every_route_the_app_s_router_has() {
        let routes =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/app/routes.tsx"))
                .unwrap();
        let mut found = 0;
        for line in routes.lines() {
            let Some(at) = line.find("path: \"") else { continue };
            let path: String = line[at + 7..].chars().take_while(|c| *c != '"').collect();
            if path == "/" || path == "*" {
                continue;
            }
            let concrete = path
                .split('/')
                .map(|p| if p.starts_with(':') { "x" } else { p })
                .collect::<Vec<_>>()
                .join("/");
            assert!(is_app_route(&concrete), "{path} is one of the app's routes (APP_ROUTES)");
            found += 1;
        }
        assert!(found >= 8, "routes read from routes.tsx: {found}");
        assert!(!is_app_route("/privacidade-que-nao-existe") && !is_app_route("/dashboardx"));
        assert!(is_app_route("/checkout/sandbox/cs_123") && is_app_route("/dashboard/"));
    }
}
