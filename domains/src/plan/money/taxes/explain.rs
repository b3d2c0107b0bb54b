//! What each regime's computation assumed, in the person's language: the rate or value, where the
//! annex came from (the CNAE, the activity, the Fator R with its payroll), what is left out and what
//! to give, and the source with its date. Every figure the DRE uses is named here.

use super::{Basis, Missing, cnae_entry, presumido::LocalTax, source};
use crate::{facts, locale::Language, plan::money::format_brl};

fn percent(value: f64, lang: Language) -> String {
    let text = format!("{:.2}", value * 100.0);
    lang.decimal(&text)
}

pub(super) fn explain(basis: &Basis, lang: Language) -> String {
    match basis {
        Basis::NotChosen => say!(lang, "taxes-explain-no-taxes-in-the-numbers"),
        Basis::Mei { activity, das, excess, expired, fact, estimate, rules } => {
            let das = Das { amount: *das, fact, estimate: *estimate, expired: expired.as_deref() };
            mei(*activity, das, excess.as_ref().map(|e| (e, rules)), lang)
        }
        Basis::Simples { .. } => simples(basis, lang),
        Basis::Presumido(p) => presumido(p, lang),
        Basis::Needs { regime, missing } => needs(regime, *missing, lang),
        Basis::NotModelled { regime } => {
            let regimes = facts::get("simples.other_regimes");
            let (name, why) = if *regime == "lucro_real" {
                ("Lucro Real", say!(lang, "taxes-explain-why-lucro-real"))
            } else {
                ("Simples Nacional", say!(lang, "taxes-explain-why-above-simples"))
            };
            say!(
                lang,
                "taxes-explain-taxes-are-not-in-these",
                name,
                why,
                regimes = regimes.text(lang),
                citation = regimes.citation(lang)
            )
        }
    }
}

/// The MEI's DAS as computed: its amount, the fact its period matches, and whether it is an
/// estimate or stale.
struct Das<'a> {
    amount: f64,
    fact: &'a str,
    estimate: Option<&'static facts::Provisional>,
    expired: Option<&'a str>,
}

fn mei(
    activity: Option<super::Activity>,
    Das { amount: das, fact, estimate, expired }: Das<'_>,
    excess: Option<(&super::MeiExcess, &super::MeiRules)>,
    lang: Language,
) -> String {
    let brl = |v: f64| format_brl(v, lang);
    let fact = facts::get(fact);
    let assumed = match activity {
        Some(a) => a.name(lang).to_owned(),
        None => say!(lang, "taxes-explain-commerce-and-services-no-activity"),
    };
    let mut text =
        say!(lang, "taxes-explain-mei-a-fixed-das-of", assumed, das = brl(das), fact = fact.citation(lang));
    if let Some(why) = estimate {
        text.push(' ');
        text.push_str(&say!(
            lang,
            "taxes-explain-is",
            das = brl(das),
            why = why.text(lang),
            source = why.source
        ));
    }
    if let Some(until) = expired {
        let year = until.get(..4).unwrap_or(until);
        text.push(' ');
        text.push_str(&say!(lang, "taxes-explain-is-s-value-the-next", das = brl(das), year));
    }
    if let Some((e, rules)) = excess {
        let c = rules.excess;
        text.push(' ');
        text.push_str(&say!(
            lang,
            "taxes-explain-the-plan-bills-a-year",
            yearly_revenue = brl(e.yearly_revenue),
            excess = brl(e.excess),
            yearly = brl(rules.ceiling.yearly),
            rate = percent(e.rate, lang),
            e = brl(e.tax()),
            brl = brl(e.tax() / 12.0),
            source = source(lang, &c.source, &c.as_of)
        ));
    }
    text
}

fn simples(basis: &Basis, lang: Language) -> String {
    let Basis::Simples {
        annex,
        rbt12,
        nominal,
        deduction,
        effective,
        fator_r,
        recorded_months,
        cnae,
        cpp,
        from_mei,
        table,
        left_mei,
    } = basis
    else {
        return String::new();
    };
    let brl = |v: f64| format_brl(v, lang);
    let facts_simples = *table;
    let mut parts = leaving_the_mei(from_mei.as_ref(), left_mei.as_ref(), *rbt12, lang);
    let revenue = match recorded_months {
        0 => say!(lang, "taxes-explain-the-plan-s-expected-12"),
        12.. => say!(lang, "taxes-explain-the-revenue-recorded-for-the"),
        n => say!(lang, "taxes-explain-the-average-of-the-recorded", n),
    };
    parts.push(say!(
        lang,
        "taxes-explain-simples-nacional-annex-an-effective",
        annex = annex.key(),
        effective = percent(*effective, lang),
        rbt12 = brl(*rbt12),
        nominal = percent(*nominal, lang),
        deduction = brl(*deduction),
        revenue,
        source = source(lang, &facts_simples.source, &facts_simples.as_of)
    ));
    let came_from_the_mei = from_mei.is_some() || left_mei.is_some();
    parts.push(where_the_annex_comes_from(cnae.as_deref(), annex.key(), came_from_the_mei, lang));
    parts.extend(fator_r_words(*fator_r, cnae.as_deref(), facts_simples, lang));
    parts.extend(lever_words(basis, lang));
    parts.extend(cpp_words(*cpp, annex.key(), facts_simples, lang));
    parts.join(" ")
}

/// A MEI's first months in the Simples: the year's excess that made it one, or the year it left.
fn leaving_the_mei(
    from_mei: Option<&super::MeiRules>,
    left_mei: Option<&super::MeiExit>,
    rbt12: f64,
    lang: Language,
) -> Vec<String> {
    let brl = |v: f64| format_brl(v, lang);
    let mut parts = Vec::new();
    if let Some(rules) = from_mei {
        let c = rules.excess;
        parts.push(say!(
            lang,
            "taxes-explain-the-plan-bills-a-year-2",
            rbt12 = brl(rbt12),
            yearly = brl(rules.ceiling.yearly),
            source = source(lang, &c.source, &c.as_of)
        ));
    }
    if let Some(exit) = left_mei {
        let next = exit.year + 1;
        parts.push(say!(
            lang,
            "taxes-explain-since-1-january-the-business",
            next,
            year = exit.year,
            revenue = brl(exit.revenue),
            limit = brl(exit.limit)
        ));
    }
    parts
}

/// Why this annex: the CNAE's entry in the table, or what was assumed without one.
fn where_the_annex_comes_from(
    cnae: Option<&str>,
    annex: &str,
    came_from_the_mei: bool,
    lang: Language,
) -> String {
    match cnae.and_then(cnae_entry) {
        Some((entry, _)) => {
            let cnaes = &facts::taxes().cnaes;
            say!(
                lang,
                "taxes-explain-the-annex-comes-from-cnae",
                cnae = shown(cnae.unwrap_or_default()),
                name = entry.name,
                basis = entry.basis,
                source = source(lang, &cnaes.source, &cnaes.as_of)
            )
        }
        None if came_from_the_mei && annex == "III" => say!(lang, "taxes-explain-without-the-cnae-annex-iii"),
        None => say!(lang, "taxes-explain-the-annex-comes-from-the"),
    }
}

/// The Fator R that chose between annexes III and V, or that the payroll is missing for it.
fn fator_r_words(
    fator_r: Option<f64>,
    cnae: Option<&str>,
    table: &facts::Simples,
    lang: Language,
) -> Option<String> {
    if let Some(r) = fator_r {
        let threshold = percent(table.fator_r.threshold, lang);
        Some(say!(
            lang,
            "taxes-explain-fator-r-of-12-months",
            r = percent(r, lang),
            threshold,
            payroll_source = table.fator_r.payroll_source
        ))
    } else if cnae.and_then(cnae_entry).is_some_and(|(_, t)| t == super::Treatment::FatorR) {
        Some(say!(lang, "taxes-explain-without-the-payroll-wages-and"))
    } else {
        None
    }
}

/// Annex IV's employer contribution (CPP), paid outside the DAS.
fn cpp_words(cpp: f64, annex: &str, table: &facts::Simples, lang: Language) -> Option<String> {
    if cpp > 0.0 {
        let c = &table.annex_iv_cpp;
        Some(say!(
            lang,
            "taxes-explain-in-annex-iv-the-cpp",
            rate = percent(c.rate, lang),
            cpp = format_brl(cpp, lang),
            source = c.source
        ))
    } else if annex == "IV" {
        Some(say!(lang, "taxes-explain-in-annex-iv-the-cpp-2"))
    } else {
        None
    }
}

fn presumido(p: &super::Presumido, lang: Language) -> String {
    let t = p.table;
    let presumption = |v: f64| percent(v, lang);
    let local = match p.local {
        LocalTax::Iss(rate) => say!(lang, "taxes-explain-iss-at-give-your-city", rate = percent(rate, lang)),
        LocalTax::Icms(rate) => say!(lang, "taxes-explain-an-effective-icms-of", rate = percent(rate, lang)),
        LocalTax::IcmsUnknown => say!(lang, "taxes-explain-icms-left-out-give-its"),
    };
    let lc224 =
        if p.lc224.is_some() { say!(lang, "taxes-explain-on-revenue-above-r-5") } else { String::new() };
    let federal = if t.pis > 0.0 || t.cofins > 0.0 {
        say!(
            lang,
            "taxes-explain-pis-and-cofins-on-revenue",
            pis = percent(t.pis, lang),
            cofins = percent(t.cofins, lang)
        )
    } else {
        String::new()
    };
    let mut text = say!(
        lang,
        "taxes-explain-lucro-presumido-irpj-on-a",
        activity = p.activity.name(lang),
        federal,
        irpj = percent(t.irpj, lang),
        presumption_irpj = presumption(p.presumption_irpj),
        irpj_additional = percent(t.irpj_additional, lang),
        additional_above_monthly = format_brl(t.additional_above_monthly, lang),
        csll = percent(t.csll, lang),
        presumption_csll = presumption(p.presumption_csll),
        local,
        lc224,
        source = source(lang, &t.source, &t.as_of)
    );
    if let Some(on_top) = &p.on_top {
        text.push(' ');
        text.push_str(&on_top_words(on_top, p.activity == super::Activity::Services, lang));
    }
    text
}

/// The reform's CBS and IBS as every place that shows them says them: their rates and base, that
/// they are charged on top of the price and credited to business customers, the premise while the
/// rate is one, and art. 127's question for a service business that has not answered it.
pub fn on_top_words(on_top: &super::OnTop, services: bool, lang: Language) -> String {
    let r = on_top.table;
    let mut text = say!(
        lang,
        "taxes-explain-since-2027-pis-and-cofins",
        cbs = percent(on_top.cbs, lang),
        ibs = percent(on_top.ibs, lang),
        source = source(lang, &r.source, &r.as_of)
    );
    if let Some(premise) = on_top.provisional {
        text.push(' ');
        text.push_str(&say!(
            lang,
            "taxes-explain-the-cbs-uses",
            premise = premise.text(lang),
            source = premise.source
        ));
    }
    match on_top.regulated {
        Some(true) => {
            text.push(' ');
            text.push_str(&say!(
                lang,
                "taxes-explain-with-the-reduction-of-regulated",
                regulated_reduction = percent(r.regulated_reduction, lang)
            ));
        }
        None if services => {
            text.push(' ');
            text.push_str(&say!(
                lang,
                "taxes-explain-if-yours-is-a-regulated",
                regulated_reduction = percent(r.regulated_reduction, lang)
            ));
        }
        _ => {}
    }
    text
}

fn needs(regime: &str, missing: Missing, lang: Language) -> String {
    let name = match regime {
        "lucro_presumido" => "Lucro Presumido",
        "mei" => "MEI",
        _ => "Simples Nacional",
    };
    match missing {
        Missing::Cnae => say!(lang, "taxes-explain-the-tax-is-not-in", name),
        Missing::Split => say!(lang, "taxes-explain-the-tax-is-not-in-2", name),
    }
}

/// "9602-5/01" from seven digits.
pub fn shown(cnae: &str) -> String {
    if cnae.len() == 7 { format!("{}-{}/{}", &cnae[..4], &cnae[4..5], &cnae[5..]) } else { cnae.to_owned() }
}

/// Annex V by the Fator R: how much more pró-labore a month reaches Annex III, what it costs in INSS
/// and the net saving, at the revenue the RBT12 gives a month.
pub fn lever_words(basis: &Basis, lang: Language) -> Option<String> {
    let Basis::Simples { rbt12, table, .. } = basis else { return None };
    let lever = super::fator_r_lever(basis, rbt12 / 12.0)?;
    let brl = |v: f64| format_brl(v, lang);
    let source = &table.fator_r.pro_labore_inss_source;
    let (threshold, inss) = (percent(lever.threshold, lang), percent(lever.inss_rate, lang));
    Some(if lever.saving > 0.0 {
        say!(
            lang,
            "taxes-explain-to-move-from-annex-v",
            extra_pro_labore = brl(lever.extra_pro_labore),
            threshold,
            das_v = brl(lever.das_v),
            das_iii = brl(lever.das_iii),
            inss,
            inss2 = brl(lever.inss),
            saving = brl(lever.saving),
            source
        )
    } else {
        say!(
            lang,
            "taxes-explain-reaching-annex-iii-by-the",
            extra_pro_labore = brl(lever.extra_pro_labore),
            inss = brl(lever.inss),
            das_v = brl(lever.das_v),
            das_iii = brl(lever.das_iii)
        )
    })
}
