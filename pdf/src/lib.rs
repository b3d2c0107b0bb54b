//! Renders the business-plan document to PDF with Typst: an A4 template with the product's fonts
//! (Noto Sans, OFL) embedded, page numbers, repeated table headers and searchable text. The
//! document's content arrives as JSON, so user text is never parsed as markup. Build the
//! `Renderer` once; it is `Send + Sync` and each render takes tens of milliseconds.

use typst::foundations::{Dict, IntoValue};
use typst_as_lib::{TypstEngine, TypstTemplateMainFile};

static TEMPLATE: &str = include_str!("../templates/plan.typ");
static FONTS: [&[u8]; 4] = [
    include_bytes!("../fonts/NotoSans-Regular.ttf"),
    include_bytes!("../fonts/NotoSans-Bold.ttf"),
    include_bytes!("../fonts/NotoSans-Italic.ttf"),
    include_bytes!("../fonts/NotoSans-BoldItalic.ttf"),
];

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the document could not be laid out: {0}")]
    Compile(String),
    #[error("the PDF could not be written: {0}")]
    Pdf(String),
}

pub struct Renderer {
    engine: TypstEngine<TypstTemplateMainFile>,
}

impl Default for Renderer {
    fn default() -> Self {
        Self::new()
    }
}

impl Renderer {
    pub fn new() -> Self {
        Self { engine: TypstEngine::builder().main_file(TEMPLATE).fonts(FONTS).build() }
    }

    /// `model` is the document as JSON: `{title, subtitle, generated_on, lang, page_label, of_label,
    /// disclaimer, sections: [{heading, items: [{label, text}], tables: [{title, columns, rows}],
    /// notes, missing}]}`.
    pub fn render(&self, model: &serde_json::Value) -> Result<Vec<u8>, RenderError> {
        let mut inputs = Dict::new();
        inputs.insert("model".into(), model.to_string().into_value());
        let compiled = self.engine.compile_with_input(inputs);
        let document = compiled.output.map_err(|e| RenderError::Compile(format!("{e:?}")))?;
        typst_pdf::pdf(&document, &typst_pdf::PdfOptions::default())
            .map_err(|e| RenderError::Pdf(format!("{e:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_renders_to_a_pdf() {
        let model = serde_json::json!({
            "title": "Plano de negócios", "subtitle": "Padaria Pão da Ana", "generated_on": "Gerado em 21/11/2026",
            "lang": "pt", "page_label": "Página", "of_label": "de", "disclaimer": "Orientação educacional.",
            "sections": [{
                "heading": "1. Sumário executivo",
                "items": [{"label": "Ideia de negócio", "text": "Pães artesanais com fermentação natural #[não é markup]"}],
                "tables": [{"title": "Indicadores", "columns": ["Item", "Valor"], "rows": [["Receita", "R$ 25.000,00"]]}],
                "notes": ["Formalize o CNPJ."], "missing": null
            }]
        });
        let pdf = Renderer::new().render(&model).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        assert!(pdf.len() > 1000);
    }
}
