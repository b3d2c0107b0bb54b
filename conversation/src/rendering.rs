//! The plan's PDF renderer: `socio-pdf` (Typst, in its own workspace crate) in every build of the
//! product, behind the default `pdf` feature. The fuzz targets build the crate without it — they
//! fuzz the parsers, and linking the typesetter with the fuzzer's instrumentation was most of a
//! fresh CI run's time (issue 31); such a build answers every render with an error saying so.

#[cfg(feature = "pdf")]
pub use socio_pdf::{RenderError, Renderer};

#[cfg(not(feature = "pdf"))]
mod without_pdf {
    #[derive(Debug, thiserror::Error)]
    pub enum RenderError {
        #[error("this build has no PDF renderer (built without the `pdf` feature)")]
        NotBuilt,
    }

    #[derive(Debug, Default)]
    pub struct Renderer;

    impl Renderer {
        pub fn new() -> Self {
            Self
        }

        pub fn render(&self, _model: &serde_json::Value) -> Result<Vec<u8>, RenderError> {
            Err(RenderError::NotBuilt)
        }
    }
}

#[cfg(not(feature = "pdf"))]
pub use without_pdf::{RenderError, Renderer};
