//! What every facts file must be before it is used — the built-in one (tested) and one named by
//! `SOCIO_FACTS_FILE` (checked at start): dated, sourced, in both languages, its tables coherent.

use super::Facts;

/// The checks every facts file passes, the built-in one included: dates that are dates, a source
/// for each, words in both languages, known topics, unique ids, the calendar's and the tables'
/// facts present, brackets that climb, the DAS's periods in order without gaps or overlaps.
pub fn validate(facts: &Facts) -> Result<(), String> {
    let date = |d: &str| {
        d.len() == 10
            && d.as_bytes()[4] == b'-'
            && d.as_bytes()[7] == b'-'
            && d.split('-').all(|p| p.chars().all(|c| c.is_ascii_digit()))
    };
    let mut ids = std::collections::HashSet::new();
    for fact in &facts.facts {
        let as_of_ok = matches!(fact.as_of.len(), 4 | 7 | 10)
            && fact.as_of.split('-').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
            && fact.as_of.as_str() >= "2000";
        if !as_of_ok {
            return Err(format!(
                "fact {}: asOf must be a date (YYYY, YYYY-MM or YYYY-MM-DD), not {:?}",
                fact.id, fact.as_of
            ));
        }
        if fact.source.trim().len() <= 5 {
            return Err(format!("fact {}: needs its source", fact.id));
        }
        if fact.pt.trim().is_empty() || fact.en.trim().is_empty() {
            return Err(format!("fact {}: needs words in pt and en", fact.id));
        }
        if !facts.topics.contains(&fact.topic) {
            return Err(format!("fact {}: unknown topic {:?}", fact.id, fact.topic));
        }
        for d in [&fact.valid_from, &fact.valid_until].into_iter().flatten() {
            if !date(d) {
                return Err(format!("fact {}: validFrom/validUntil must be YYYY-MM-DD, not {d:?}", fact.id));
            }
        }
        if !ids.insert(fact.id.as_str()) {
            return Err(format!("fact {} appears twice", fact.id));
        }
    }
    let exists = |id: &str| facts.facts.iter().any(|f| f.id == id);
    let c = &facts.calendar;
    let t = &facts.taxes;
    let named = [
        &c.das.fact,
        &c.dasn.fact,
        &c.simples_das.fact,
        &c.defis.fact,
        &c.ceiling.fact,
        &c.ceiling.tolerance_fact,
        &c.holidays.fact,
        &t.simples.fact,
        &t.simples.fator_r.fact,
    ];
    for id in named.into_iter().chain(t.mei_das.iter().map(|d| &d.fact)) {
        if !exists(id) {
            return Err(format!("the tables name the fact {id}, which is not in facts"));
        }
    }
    if t.mei_das.is_empty() {
        return Err("taxes.meiDas needs at least one period".into());
    }
    for das in &t.mei_das {
        if !(date(&das.valid_from) && date(&das.valid_until) && das.valid_from <= das.valid_until) {
            return Err(format!(
                "taxes.meiDas: a period runs from validFrom to validUntil (YYYY-MM-DD), not {}…{}",
                das.valid_from, das.valid_until
            ));
        }
        if [das.commerce, das.industry, das.services, das.commerce_and_services]
            .iter()
            .any(|v| !(v.is_finite() && *v > 0.0))
        {
            return Err(format!("taxes.meiDas {}: every value must be a positive amount", das.valid_from));
        }
    }
    if t.mei_das.windows(2).any(|w| w[0].valid_until >= w[1].valid_from) {
        return Err("taxes.meiDas: periods must be in order and must not overlap".into());
    }
    for (annex, brackets) in &t.simples.annexes {
        let climbs = brackets.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1);
        if brackets.len() != 6 || !climbs || brackets[0].2 != 0.0 {
            return Err(format!(
                "taxes.simples.annexes.{annex}: six brackets that climb, the first with nothing to deduct"
            ));
        }
    }
    for topic in &facts.topics {
        if !facts.facts.iter().any(|f| &f.topic == topic) {
            return Err(format!("topic {topic} has no facts"));
        }
    }
    Ok(())
}
