//! What the landing page may claim, and only that: figures the product can count (plans created,
//! the states people write from, read from their numbers' area codes) and testimonials the operator
//! configured (`SOCIO_TESTIMONIALS_FILE`, each quote with the permission of the person quoted).
//! Nothing invented is shown: a claim without a source is misleading advertising (Código de Defesa
//! do Consumidor, Lei 8.078/1990, art. 37 § 1º). The counts are read at most every ten minutes
//! (the landing page is public and hot).

use std::{
    path::Path,
    sync::{Arc, Mutex},
};

use sqlx::Row;

use crate::{db::Db, error::AppError, locale::Language};

/// The fewest people a state must have before the landing page names it: one person's state,
/// beside the product's name, says where that person lives.
pub const MIN_PEOPLE_PER_STATE: i64 = 5;

/// How long counted figures are served before they are counted again.
const FRESH_MS: i64 = 10 * 60 * 1000;

/// The product's own figures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub plans_created: i64,
    /// Brazilian states (UF) people wrote from, sorted.
    pub states: Vec<&'static str>,
}

/// A quote the operator configured, in one language.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Testimonial {
    pub name: String,
    /// What they do and where ("Confeiteira, Belo Horizonte (MG)").
    pub role: String,
    pub text: String,
    /// "pt-BR" or "en".
    pub language: String,
}

/// Reads and checks `SOCIO_TESTIMONIALS_FILE`: a JSON list of testimonials, each with a name, a
/// role and a text (at most 400 characters) in "pt-BR" or "en". The error names the file.
pub fn load_testimonials(path: &Path) -> Result<Vec<Testimonial>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("SOCIO_TESTIMONIALS_FILE {shown}: cannot be read: {e}"))?;
    let quotes: Vec<Testimonial> = serde_json::from_str(&text)
        .map_err(|e| format!("SOCIO_TESTIMONIALS_FILE {shown}: not a list of testimonials: {e}"))?;
    for (i, q) in quotes.iter().enumerate() {
        let blank = [&q.name, &q.role, &q.text].iter().any(|s| s.trim().is_empty());
        if blank || q.text.chars().count() > 400 || Language::parse(&q.language).is_none() {
            return Err(format!(
                "SOCIO_TESTIMONIALS_FILE {shown}: testimonial {} needs a name, a role, a text of at most 400 characters and a language (pt-BR or en)",
                i + 1
            ));
        }
    }
    Ok(quotes)
}

/// The Brazilian state of an area code (DDD), from ANATEL's numbering plan ("Códigos Nacionais",
/// <https://www.gov.br/anatel/pt-br/regulado/numeracao/codigos-nacionais>).
pub fn state_of(area_code: &str) -> Option<&'static str> {
    let code: u8 = area_code.parse().ok()?;
    Some(match code {
        11..=19 => "SP",
        21 | 22 | 24 => "RJ",
        27 | 28 => "ES",
        31..=35 | 37 | 38 => "MG",
        41..=46 => "PR",
        47..=49 => "SC",
        51 | 53..=55 => "RS",
        61 => "DF",
        62 | 64 => "GO",
        63 => "TO",
        65 | 66 => "MT",
        67 => "MS",
        68 => "AC",
        69 => "RO",
        71 | 73..=75 | 77 => "BA",
        79 => "SE",
        81 | 87 => "PE",
        82 => "AL",
        83 => "PB",
        84 => "RN",
        85 | 88 => "CE",
        86 | 89 => "PI",
        91 | 93 | 94 => "PA",
        92 | 97 => "AM",
        95 => "RR",
        96 => "AP",
        98 | 99 => "MA",
        _ => return None,
    })
}

#[derive(Clone)]
pub struct Proof {
    db: Db,
    testimonials: Arc<Vec<Testimonial>>,
    counted: Arc<Mutex<Option<(i64, Counts)>>>,
}

impl Proof {
    pub fn new(db: Db, testimonials: Vec<Testimonial>) -> Self {
        Self { db, testimonials: Arc::new(testimonials), counted: Arc::default() }
    }

    /// The configured testimonials in `lang`.
    pub fn testimonials(&self, lang: Language) -> Vec<Testimonial> {
        self.testimonials.iter().filter(|t| Language::parse(&t.language) == Some(lang)).cloned().collect()
    }

    /// Plans created and the states people wrote from, counted at most every ten minutes.
    pub async fn counts(&self) -> Result<Counts, AppError> {
        let now = self.db.now_ms();
        if let Some((at, counts)) = self.counted.lock().expect("not poisoned").as_ref()
            && now - at < FRESH_MS
            && now >= *at
        {
            return Ok(counts.clone());
        }
        // A plan counts once something is written in it (a section the plan itself calls filled):
        // opening the builder, or a read, is no plan made.
        let plans_created: i64 =
            sqlx::query("select count(distinct plan_id) as n from plan_sections where filled = true")
                .fetch_one(self.db.pool())
                .await?
                .try_get("n")?;
        // Numbers are stored as E.164: "+55", then the area code.
        let rows = sqlx::query(
            "select substr(phone_number, 4, 2) as area, count(*) as people from users \
             where phone_number like '+55%' group by substr(phone_number, 4, 2)",
        )
        .fetch_all(self.db.pool())
        .await?;
        let mut people: std::collections::BTreeMap<&'static str, i64> = Default::default();
        for row in &rows {
            if let Some(state) = row.try_get::<String, _>("area").ok().as_deref().and_then(state_of) {
                *people.entry(state).or_default() += row.try_get::<i64, _>("people")?;
            }
        }
        let states: Vec<&'static str> =
            people.into_iter().filter(|(_, n)| *n >= MIN_PEOPLE_PER_STATE).map(|(state, _)| state).collect();
        let counts = Counts { plans_created, states };
        *self.counted.lock().expect("not poisoned") = Some((now, counts.clone()));
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_codes_name_their_state_and_unknown_ones_none() {
        assert_eq!(state_of("11"), Some("SP"));
        assert_eq!(state_of("19"), Some("SP"));
        assert_eq!(state_of("21"), Some("RJ"));
        assert_eq!(state_of("61"), Some("DF"));
        assert_eq!(state_of("99"), Some("MA"));
        assert_eq!(state_of("20"), None, "no such area code");
        assert_eq!(state_of("52"), None);
        assert_eq!(state_of("x1"), None);
    }

    #[test]
    fn every_state_and_the_federal_district_have_an_area_code() {
        let mut states: Vec<_> = (10..100).filter_map(|n| state_of(&n.to_string())).collect();
        states.sort_unstable();
        states.dedup();
        assert_eq!(states.len(), 27);
    }

    #[test]
    fn a_testimonial_file_is_checked_and_named_when_wrong() {
        let dir = std::env::temp_dir().join(format!("socio-testimonials-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.json");
        std::fs::write(
            &good,
            r#"[{"name":"Mariana","role":"Confeiteira, BH (MG)","text":"Ajudou.","language":"pt-BR"}]"#,
        )
        .unwrap();
        assert_eq!(load_testimonials(&good).unwrap().len(), 1);
        let bad = dir.join("bad.json");
        std::fs::write(&bad, r#"[{"name":"","role":"x","text":"y","language":"pt-BR"}]"#).unwrap();
        assert!(load_testimonials(&bad).unwrap_err().contains("testimonial 1 needs a name"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
