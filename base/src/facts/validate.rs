//! What every facts file must be before it is used — the built-in one (tested) and one named by
//! `SOCIO_FACTS_FILE` (checked at start): dated, sourced, in both languages, its tables coherent.

use super::Facts;

/// The checks every facts file passes, the built-in one included: dates that are dates, a source
/// for each, words in both languages, known topics, unique ids, the calendar's and the tables'
/// facts present, brackets that climb, every dated table's periods in order without overlaps.
pub fn validate(facts: &Facts) -> Result<(), String> {
    each_fact(facts)?;
    let (c, t) = (&facts.calendar, &facts.taxes);
    periods("taxes.meiDas", &t.mei_das, true)?;
    periods("taxes.simples", &t.simples, false)?;
    periods("taxes.meiCeiling", &t.mei_ceiling, false)?;
    periods("taxes.lucroPresumido", &t.lucro_presumido, false)?;
    periods("calendar.ceiling", &c.ceiling, false)?;
    periods("taxes.cbsIbs", &t.cbs_ibs, false)?;
    provisional("taxes.meiDas", &t.mei_das)?;
    provisional("taxes.lucroPresumido", &t.lucro_presumido)?;
    provisional("taxes.cbsIbs", &t.cbs_ibs)?;
    named_facts_exist(facts)?;
    values(facts)?;
    for topic in &facts.topics {
        if !facts.facts.iter().any(|f| &f.topic == topic) {
            return Err(format!("topic {topic} has no facts"));
        }
    }
    Ok(())
}

/// Each fact: dated, sourced, in both languages, of a known topic, valid from and until days,
/// its id once, and the fact superseding it present.
fn each_fact(facts: &Facts) -> Result<(), String> {
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
    for fact in &facts.facts {
        if let Some(next) = &fact.superseded_by
            && !exists(next)
        {
            return Err(format!("fact {}: supersededBy names {next}, which is not in facts", fact.id));
        }
    }
    Ok(())
}

/// The facts the calendar and the tables cite are in the file.
fn named_facts_exist(facts: &Facts) -> Result<(), String> {
    let (c, t) = (&facts.calendar, &facts.taxes);
    let exists = |id: &str| facts.facts.iter().any(|f| f.id == id);
    let mut named = vec![
        &c.das.fact,
        &c.dasn.fact,
        &c.simples_das.fact,
        &c.defis.fact,
        &c.year_over.fact,
        &c.simples_choice.fact,
        &c.simples_option.fact,
        &c.holidays.fact,
    ];
    named.extend(c.ceiling.periods().iter().flat_map(|p| [&p.value.fact, &p.value.tolerance_fact]));
    named.extend(t.simples.periods().iter().flat_map(|p| [&p.value.fact, &p.value.fator_r.fact]));
    named.extend(t.mei_das.periods().iter().map(|p| &p.value.fact));
    named.extend(t.cbs_ibs.periods().iter().map(|p| &p.value.fact));
    for id in named {
        if !exists(id) {
            return Err(format!("the tables name the fact {id}, which is not in facts"));
        }
    }
    Ok(())
}

/// The tables' and the calendar's values: positive amounts, months of the year, shares from 0 to
/// 1, brackets that climb, days that are days.
fn values(facts: &Facts) -> Result<(), String> {
    let (c, t) = (&facts.calendar, &facts.taxes);
    for period in t.mei_das.periods() {
        let das = &period.value;
        if [das.commerce, das.industry, das.services, das.commerce_and_services]
            .iter()
            .any(|v| !(v.is_finite() && *v > 0.0))
        {
            return Err(format!("taxes.meiDas {}: every value must be a positive amount", period.valid_from));
        }
    }
    for (name, window) in [("simplesChoice", &c.simples_choice), ("simplesOption", &c.simples_option)] {
        let months_ok = !window.months.is_empty() && window.months.iter().all(|m| (1..=12).contains(m));
        if !date(&window.valid_from) || !months_ok {
            return Err(format!("calendar.{name}: a validFrom (YYYY-MM-DD) and months from 1 to 12"));
        }
    }
    for period in c.ceiling.periods() {
        let ceiling = &period.value;
        let positive = ceiling.yearly.is_finite() && ceiling.yearly > 0.0;
        if !positive || !(0.0..1.0).contains(&ceiling.tolerance) {
            return Err(format!(
                "calendar.ceiling {}: a positive yearly ceiling and a tolerance from 0 to 1",
                period.valid_from
            ));
        }
    }
    for period in t.simples.periods() {
        for (annex, brackets) in &period.value.annexes {
            let climbs = brackets.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1);
            if brackets.len() != 6 || !climbs || brackets[0].2 != 0.0 {
                return Err(format!(
                    "taxes.simples {}: annex {annex} needs six brackets that climb, the first with nothing to deduct",
                    period.valid_from
                ));
            }
        }
    }
    for period in t.cbs_ibs.periods() {
        let r = &period.value;
        let rates = [r.cbs_reference, r.cbs_reduction, r.ibs_state, r.ibs_municipal, r.regulated_reduction];
        if !rates.iter().all(|v| (0.0..1.0).contains(v)) || r.cbs_reduction > r.cbs_reference {
            return Err(format!("taxes.cbsIbs {}: rates are shares from 0 to 1", period.valid_from));
        }
    }
    for day in c.holidays.good_friday.iter().chain(&c.holidays.banks_closed) {
        if !date(day) {
            return Err(format!("calendar.holidays: {day:?} is not YYYY-MM-DD"));
        }
    }
    for period in t.simples.periods() {
        for annex in period.value.annexes.keys() {
            let shares = period.value.shares.annexes.get(annex);
            let ok = shares.is_some_and(|s| {
                s.len() == 6
                    && s.iter().all(|(a, b)| (0.0..1.0).contains(a) && (0.0..1.0).contains(b) && a + b < 1.0)
            });
            if !ok {
                return Err(format!(
                    "taxes.simples {}: shares.annexes.{annex} needs six brackets of (PIS + Cofins, ICMS/ISS) shares",
                    period.valid_from
                ));
            }
        }
    }
    Ok(())
}

/// A dated table's periods: at least one, each from `validFrom` to `validUntil` (YYYY-MM-DD), in
/// order without overlaps; only the last may be open-ended, and none when every period must end
/// (`ends`: the MEI's DAS follows each year's minimum wage).
fn periods<T>(name: &str, table: &super::Dated<T>, ends: bool) -> Result<(), String> {
    let periods = table.periods();
    if periods.is_empty() {
        return Err(format!("{name} needs at least one period"));
    }
    for (i, p) in periods.iter().enumerate() {
        let open_ok = !ends && i + 1 == periods.len();
        let until_ok = match &p.valid_until {
            Some(until) => date(until) && p.valid_from <= *until,
            None => open_ok,
        };
        if !(date(&p.valid_from) && until_ok) {
            return Err(format!(
                "{name}: a period runs from validFrom to validUntil (YYYY-MM-DD{}), not {}…{}",
                if ends { "" } else { "; only the last may leave validUntil out" },
                p.valid_from,
                p.valid_until.as_deref().unwrap_or("")
            ));
        }
    }
    let in_order = periods
        .windows(2)
        .all(|w| w[0].valid_until.as_deref().is_some_and(|until| until < w[1].valid_from.as_str()));
    if !in_order {
        return Err(format!("{name}: periods must be in order and must not overlap"));
    }
    Ok(())
}

/// A provisional period (an estimate, a premise) says where its figure comes from, in both languages.
fn provisional<T>(name: &str, table: &super::Dated<T>) -> Result<(), String> {
    for p in table.periods() {
        if let Some(why) = &p.provisional
            && (why.source.trim().len() <= 5 || why.pt.trim().is_empty() || why.en.trim().is_empty())
        {
            return Err(format!(
                "{name} {}: a provisional period needs its source and words in pt and en",
                p.valid_from
            ));
        }
    }
    Ok(())
}

/// A day as the file writes it: YYYY-MM-DD.
fn date(d: &str) -> bool {
    d.len() == 10
        && d.as_bytes()[4] == b'-'
        && d.as_bytes()[7] == b'-'
        && d.split('-').all(|p| p.chars().all(|c| c.is_ascii_digit()))
}
