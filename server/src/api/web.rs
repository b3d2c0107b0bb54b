//! The built React app (`web/dist`): `/` gets `index.html`, the landing page alone (no router, so it
//! loads light); any other path that is not a file gets `app.html`, the app, whose router shows the
//! page or its 404. Hashed assets are cached for a year; the HTML never; a missing asset is a 404.
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
        let immutable = request.uri().path().starts_with("/assets/");
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
