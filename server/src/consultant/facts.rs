//! Dated facts about Brazilian small business the consultant's tips quote, in one place so a
//! change in the law is a one-line change. Source: shared/notes/brazil-business-facts.md.

/// MEI yearly revenue limit, in reais (LC 123/2006 art. 18-A; unchanged as of March 2026).
pub const MEI_YEARLY_LIMIT: &str = "81.000";
/// The date the figures below were checked.
pub const AS_OF: &str = "março de 2026";
pub const AS_OF_EN: &str = "March 2026";
/// Monthly DAS-MEI in 2026 for commerce/industry and for services.
pub const DAS_MEI_2026_COMMERCE: &str = "82,05";
pub const DAS_MEI_2026_SERVICES: &str = "86,05";
/// Simples Nacional ceiling, in millions of reais per year.
pub const SIMPLES_CEILING_MILLIONS: &str = "4,8";
/// Sebrae's free service line.
pub const SEBRAE_PHONE: &str = "0800 570 0800";
