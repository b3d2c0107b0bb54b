//! What each regime's computation assumed, in the person's language: the rate or value, where the
//! annex came from (the CNAE, the activity, the Fator R with its payroll), what is left out and what
//! to give, and the source with its date. Every figure the DRE uses is named here.

use super::{Basis, Missing, cnae_entry, presumido::LocalTax, source};
use crate::{facts, locale::Language, plan::money::format_brl};

fn percent(value: f64, lang: Language) -> String {
    let text = format!("{:.2}", value * 100.0);
    lang.choose(text.replace('.', ","), text)
}

pub(super) fn explain(basis: &Basis, lang: Language) -> String {
    match basis {
        Basis::NotChosen => lang.choose(
            "Sem impostos nas contas: o regime tributário não foi escolhido (etapa Jurídico). Escolha MEI, Simples Nacional ou Lucro Presumido para ver o imposto do mês.",
            "No taxes in the numbers: no tax regime was chosen (Legal step). Choose MEI, Simples Nacional or Lucro Presumido to see the month's tax.",
        )
        .into(),
        Basis::Mei { activity, das, excess, expired, fact, estimate, rules } => {
            let das = Das { amount: *das, fact, estimate: *estimate, expired: expired.as_deref() };
            mei(*activity, das, excess.as_ref().map(|e| (e, rules)), lang)
        }
        Basis::Simples { .. } => simples(basis, lang),
        Basis::Presumido(p) => presumido(p, lang),
        Basis::Needs { regime, missing } => needs(regime, *missing, lang),
        Basis::NotModelled { regime } => {
            let regimes = facts::get("simples.other_regimes");
            let (name, pt_why, en_why) = if *regime == "lucro_real" {
                ("Lucro Real", "dependem do lucro real, de créditos e da folha", "they depend on the actual profit, credits and payroll")
            } else {
                ("Simples Nacional", "a receita de 12 meses passa do teto do Simples (R$ 4,8 milhões)", "the 12-month revenue is above the Simples' ceiling (R$ 4.8 million)")
            };
            lang.choose(
                format!("{name}: os impostos não entram nestas contas ({pt_why}); peça a um contador a estimativa do seu caso. {} {}", regimes.text(lang), regimes.citation(lang)),
                format!("{name}: taxes are not in these numbers ({en_why}); ask an accountant for your case. {} {}", regimes.text(lang), regimes.citation(lang)),
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
        None => lang
            .choose(
                "comércio e serviços (a atividade não foi informada: o valor mais alto)",
                "commerce and services (no activity given: the highest value)",
            )
            .to_owned(),
    };
    let mut text = lang.choose(
        format!(
            "MEI ({assumed}): DAS fixo de {} por mês, mesmo sem faturamento {}.",
            brl(das),
            fact.citation(lang)
        ),
        format!(
            "MEI ({assumed}): a fixed DAS of {} a month, even with no revenue {}.",
            brl(das),
            fact.citation(lang)
        ),
    );
    if let Some(why) = estimate {
        text.push(' ');
        text.push_str(&lang.choose(
            format!("⚠️ {} é uma {} ({}).", brl(das), why.text(lang), why.source),
            format!("⚠️ {} is {} ({}).", brl(das), why.text(lang), why.source),
        ));
    }
    if let Some(until) = expired {
        let year = until.get(..4).unwrap_or(until);
        text.push(' ');
        text.push_str(&lang.choose(
            format!("⚠️ {} é o valor de {year}; o do ano seguinte ainda não foi publicado aqui (sai com o novo salário mínimo).", brl(das)),
            format!("⚠️ {} is {year}'s value; the next year's is not published here yet (it follows the new minimum wage).", brl(das)),
        ));
    }
    if let Some((e, rules)) = excess {
        let c = rules.excess;
        text.push(' ');
        text.push_str(&lang.choose(
            format!(
                "O plano fatura {} no ano, {} acima do limite de {} (até 20 %): paga {} % sobre o excesso, {} uma vez no DAS de janeiro (aqui, {} por mês), e sai do MEI no ano seguinte {}.",
                brl(e.yearly_revenue), brl(e.excess), brl(rules.ceiling.yearly), percent(e.rate, lang), brl(e.tax()), brl(e.tax() / 12.0), source(lang, &c.source, &c.as_of)
            ),
            format!(
                "The plan bills {} a year, {} over the {} ceiling (up to 20 %): it pays {} % on the excess, {} once with January's DAS (here {} a month), and leaves the MEI the next year {}.",
                brl(e.yearly_revenue), brl(e.excess), brl(rules.ceiling.yearly), percent(e.rate, lang), brl(e.tax()), brl(e.tax() / 12.0), source(lang, &c.source, &c.as_of)
            ),
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
    let mut parts = Vec::new();
    if let Some(rules) = from_mei {
        let c = rules.excess;
        parts.push(lang.choose(
            format!(
                "O plano fatura {} no ano, mais de 20 % acima do limite do MEI ({}): o MEI é desenquadrado desde janeiro e paga como empresa do Simples Nacional {}.",
                brl(*rbt12), brl(rules.ceiling.yearly), source(lang, &c.source, &c.as_of)
            ),
            format!(
                "The plan bills {} a year, more than 20 % over the MEI's {} ceiling: the MEI is excluded back to January and pays as a Simples Nacional company {}.",
                brl(*rbt12), brl(rules.ceiling.yearly), source(lang, &c.source, &c.as_of)
            ),
        ));
    }
    if let Some(exit) = left_mei {
        let next = exit.year + 1;
        parts.push(lang.choose(
            format!(
                "Desde 1º de janeiro de {next} o negócio é ME no Simples Nacional: o faturamento registrado de {} ({}) passou do limite do MEI ({}) (LC 123/2006 art. 18-A §7º III). O DAS agora é apurado todo mês no PGDAS-D. Se você continua MEI (parte da receita não era da atividade, por exemplo), diga na etapa Jurídico.",
                exit.year, brl(exit.revenue), brl(exit.limit)
            ),
            format!(
                "Since 1 January {next} the business is an ME in the Simples Nacional: its recorded {} revenue ({}) passed the MEI's limit ({}) (LC 123/2006 art. 18-A §7º III). The DAS is now worked out every month in the PGDAS-D. If you are still a MEI (part of the revenue was not the activity's, say), say so in the Legal step.",
                exit.year, brl(exit.revenue), brl(exit.limit)
            ),
        ));
    }
    let revenue = match recorded_months {
        0 => lang
            .choose("a receita de 12 meses prevista no plano", "the plan's expected 12-month revenue")
            .to_owned(),
        12.. => lang
            .choose(
                "a receita registrada dos últimos 12 meses",
                "the revenue recorded for the last 12 months",
            )
            .to_owned(),
        n => lang.choose(
            format!("a média dos {n} meses registrados × 12 (Res. CGSN 140/2018 art. 22)"),
            format!("the average of the {n} recorded months × 12 (Res. CGSN 140/2018 art. 22)"),
        ),
    };
    parts.push(lang.choose(
        format!(
            "Simples Nacional, Anexo {}: alíquota efetiva de {} % = ({} × {} % − {}) ÷ {}, com {revenue} {}.",
            annex.key(),
            percent(*effective, lang),
            brl(*rbt12),
            percent(*nominal, lang),
            brl(*deduction),
            brl(*rbt12),
            source(lang, &facts_simples.source, &facts_simples.as_of)
        ),
        format!(
            "Simples Nacional, Annex {}: an effective rate of {} % = ({} × {} % − {}) ÷ {}, on {revenue} {}.",
            annex.key(),
            percent(*effective, lang),
            brl(*rbt12),
            percent(*nominal, lang),
            brl(*deduction),
            brl(*rbt12),
            source(lang, &facts_simples.source, &facts_simples.as_of)
        ),
    ));
    parts.push(match cnae.as_deref().and_then(cnae_entry) {
        Some((entry, _)) => {
            let cnaes = &facts::taxes().cnaes;
            lang.choose(
                format!("O anexo vem do CNAE {} ({}, {}) {}.", shown(cnae.as_deref().unwrap_or_default()), entry.name, entry.basis, source(lang, &cnaes.source, &cnaes.as_of)),
                format!("The annex comes from CNAE {} ({}, {}) {}.", shown(cnae.as_deref().unwrap_or_default()), entry.name, entry.basis, source(lang, &cnaes.source, &cnaes.as_of)),
            )
        }
        None if (from_mei.is_some() || left_mei.is_some()) && annex.key() == "III" => lang.choose(
            "Sem o CNAE, o Anexo III das ocupações de serviço permitidas ao MEI: informe o CNAE (etapa Jurídico) para confirmar.".to_owned(),
            "Without the CNAE, Annex III of the service occupations a MEI may have: give the CNAE (Legal step) to confirm.".to_owned(),
        ),
        None => lang.choose(
            "O anexo vem da atividade (comércio: I; indústria: II).".to_owned(),
            "The annex comes from the activity (commerce: I; industry: II).".to_owned(),
        ),
    });
    if let Some(r) = fator_r {
        let threshold = percent(facts_simples.fator_r.threshold, lang);
        parts.push(lang.choose(
            format!(
                "Fator R de {} % (folha de 12 meses ÷ receita de 12 meses; {} % ou mais: Anexo III, abaixo: Anexo V). A folha conta salários, pró-labore, 13º, terço de férias e FGTS ({}).",
                percent(*r, lang), threshold, facts_simples.fator_r.payroll_source
            ),
            format!(
                "Fator R of {} % (12 months' payroll ÷ 12 months' revenue; {} % or more: Annex III, below: Annex V). The payroll counts wages, pró-labore, the 13th, the vacation third and FGTS ({}).",
                percent(*r, lang), threshold, facts_simples.fator_r.payroll_source
            ),
        ));
    } else if cnae.as_deref().and_then(cnae_entry).is_some_and(|(_, t)| t == super::Treatment::FatorR) {
        parts.push(lang.choose(
            "Sem a folha (salários e pró-labore na etapa Financeiro), o Fator R não pode ser calculado: Anexo V, o mais caro.".to_owned(),
            "Without the payroll (wages and pró-labore in the Finance step), the Fator R cannot be worked out: Annex V, the dearest.".to_owned(),
        ));
    }
    parts.extend(lever_words(basis, lang));
    if *cpp > 0.0 {
        let c = &facts_simples.annex_iv_cpp;
        parts.push(lang.choose(
            format!("No Anexo IV a CPP (INSS patronal, {} % da folha) é paga fora do DAS: {} por mês ({}).", percent(c.rate, lang), brl(*cpp), c.source),
            format!("In Annex IV the CPP (employer INSS, {} % of payroll) is paid outside the DAS: {} a month ({}).", percent(c.rate, lang), brl(*cpp), c.source),
        ));
    } else if annex.key() == "IV" {
        parts.push(lang.choose(
            "No Anexo IV a CPP (INSS patronal) é paga fora do DAS: informe salários e pró-labore para somá-la.".to_owned(),
            "In Annex IV the CPP (employer INSS) is paid outside the DAS: give wages and pró-labore to add it.".to_owned(),
        ));
    }
    parts.join(" ")
}

fn presumido(p: &super::Presumido, lang: Language) -> String {
    let t = p.table;
    let presumption = |v: f64| percent(v, lang);
    let local = match p.local {
        LocalTax::Iss(rate) => lang.choose(
            format!(
                "ISS de {} % (informe a alíquota da sua cidade, de 2 % a 5 %, na etapa Jurídico)",
                percent(rate, lang)
            ),
            format!(
                "ISS at {} % (give your city's rate, 2 % to 5 %, in the Legal step)",
                percent(rate, lang)
            ),
        ),
        LocalTax::Icms(rate) => lang.choose(
            format!("ICMS efetivo de {} %", percent(rate, lang)),
            format!("an effective ICMS of {} %", percent(rate, lang)),
        ),
        LocalTax::IcmsUnknown => lang.choose(
            "ICMS fora das contas: informe a alíquota efetiva depois dos créditos (etapa Jurídico)"
                .to_owned(),
            "ICMS left out: give its effective rate after credits (Legal step)".to_owned(),
        ),
    };
    let lc224 = if p.lc224.is_some() {
        lang.choose(
            " Na receita acima de R$ 5 milhões por ano, a presunção é 10 % maior (LC 224/2025).",
            " On revenue above R$ 5 million a year, the presumption is 10 % higher (LC 224/2025).",
        )
    } else {
        ""
    };
    let federal = if t.pis > 0.0 || t.cofins > 0.0 {
        lang.choose(
            format!(
                "PIS {} % e Cofins {} % sobre a receita; ",
                percent(t.pis, lang),
                percent(t.cofins, lang)
            ),
            format!("PIS {} % and Cofins {} % on revenue; ", percent(t.pis, lang), percent(t.cofins, lang)),
        )
    } else {
        String::new()
    };
    let mut text = lang.choose(
        format!(
            "Lucro Presumido ({}): {federal}IRPJ {} % sobre a presunção de {} % da receita, mais {} % sobre o lucro presumido acima de {} por mês; CSLL {} % sobre a presunção de {} %; {local}.{lc224} {}",
            p.activity.name(lang), percent(t.irpj, lang), presumption(p.presumption_irpj),
            percent(t.irpj_additional, lang), format_brl(t.additional_above_monthly, lang), percent(t.csll, lang), presumption(p.presumption_csll),
            source(lang, &t.source, &t.as_of)
        ),
        format!(
            "Lucro Presumido ({}): {federal}IRPJ {} % on a presumed profit of {} % of revenue, plus {} % on the presumed profit above {} a month; CSLL {} % on a presumption of {} %; {local}.{lc224} {}",
            p.activity.name(lang), percent(t.irpj, lang), presumption(p.presumption_irpj),
            percent(t.irpj_additional, lang), format_brl(t.additional_above_monthly, lang), percent(t.csll, lang), presumption(p.presumption_csll),
            source(lang, &t.source, &t.as_of)
        ),
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
    let mut text = lang.choose(
        format!(
            "Desde 2027 PIS e Cofins acabaram: entram a CBS de {} % e o IBS de {} % sobre a receita sem o ISS e o ICMS, cobrados por fora do preço e destacados na nota — o cliente empresa toma o crédito; aqui eles contam nos impostos do mês, como se saíssem da sua margem, até que você os repasse ao preço {}.",
            percent(on_top.cbs, lang), percent(on_top.ibs, lang), source(lang, &r.source, &r.as_of)
        ),
        format!(
            "Since 2027 PIS and Cofins are gone: the CBS at {} % and the IBS at {} % come in, on revenue without ISS and ICMS, charged on top of the price and shown on the invoice — a business customer takes the credit; here they count in the month's taxes, as if out of your margin, until you pass them on in the price {}.",
            percent(on_top.cbs, lang), percent(on_top.ibs, lang), source(lang, &r.source, &r.as_of)
        ),
    );
    if let Some(premise) = on_top.provisional {
        text.push(' ');
        text.push_str(&lang.choose(
            format!("⚠️ A CBS usa uma {} ({}).", premise.text(lang), premise.source),
            format!("⚠️ The CBS uses {} ({}).", premise.text(lang), premise.source),
        ));
    }
    match on_top.regulated {
        Some(true) => {
            text.push(' ');
            text.push_str(&lang.choose(
                format!("Com a redução de {} % das profissões intelectuais regulamentadas (LC 214/2025 art. 127).", percent(r.regulated_reduction, lang)),
                format!("With the {} % reduction of regulated intellectual professions (LC 214/2025 art. 127).", percent(r.regulated_reduction, lang)),
            ));
        }
        None if services => {
            text.push(' ');
            text.push_str(&lang.choose(
                format!("Se o seu serviço é de profissão intelectual regulamentada, fiscalizada por conselho (contador, advogado, arquiteto, engenheiro, administrador…), a CBS e o IBS têm {} % de redução (LC 214/2025 art. 127): diga na etapa Jurídico — não a supusemos.", percent(r.regulated_reduction, lang)),
                format!("If yours is a regulated intellectual profession, supervised by a council (accountant, lawyer, architect, engineer, administrator…), the CBS and IBS are {} % lower (LC 214/2025 art. 127): say so in the Legal step — we did not assume it.", percent(r.regulated_reduction, lang)),
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
        Missing::Cnae => lang.choose(
            format!("{name}: o imposto ainda não entra nas contas. Para serviços, o anexo do Simples (III, IV ou V) e a presunção dependem da atividade exata: informe o CNAE (por exemplo 9602-5/01, cabeleireiros) na etapa Jurídico, e a folha (salários e pró-labore) na etapa Financeiro."),
            format!("{name}: the tax is not in the numbers yet. For services, the Simples annex (III, IV or V) and the presumption depend on the exact activity: give the CNAE (for example 9602-5/01, hairdressers) in the Legal step, and the payroll (wages and pró-labore) in the Finance step."),
        ),
        Missing::Split => lang.choose(
            format!("{name}: o imposto ainda não entra nas contas. Comércio e serviços são tributados de formas diferentes: informe o CNAE da atividade principal na etapa Jurídico (e, se parte relevante da receita for da outra atividade, peça a um contador a divisão)."),
            format!("{name}: the tax is not in the numbers yet. Commerce and services are taxed differently: give the main activity's CNAE in the Legal step (and, if much of the revenue comes from the other activity, ask an accountant for the split)."),
        ),
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
        lang.choose(
            format!(
                "Para sair do Anexo V para o III: com {} a mais de pró-labore por mês (mantidos nos 12 meses do Fator R), o Fator R chega a {threshold} % e o DAS cai de {} para {} por mês; o INSS do sócio sobre esse acréscimo ({inss} %, até o teto) é {} — economia líquida de {} por mês. O pró-labore não é custo novo: é lucro pago como remuneração (o IRPF do sócio sobre ele não está nesta conta) ({source}).",
                brl(lever.extra_pro_labore), brl(lever.das_v), brl(lever.das_iii), brl(lever.inss), brl(lever.saving)
            ),
            format!(
                "To move from Annex V to III: with {} more pró-labore a month (kept over the Fator R's 12 months), the Fator R reaches {threshold} % and the DAS falls from {} to {} a month; the partner's INSS on the increase ({inss} %, up to the ceiling) is {} — a net saving of {} a month. The pró-labore is no new cost: it is profit paid as remuneration (the partner's income tax on it is not in this sum) ({source}).",
                brl(lever.extra_pro_labore), brl(lever.das_v), brl(lever.das_iii), brl(lever.inss), brl(lever.saving)
            ),
        )
    } else {
        lang.choose(
            format!(
                "Chegar ao Anexo III pelo Fator R pediria {} a mais de pró-labore por mês, e o INSS sobre isso ({}) come a economia do DAS ({} → {}): não compensa hoje.",
                brl(lever.extra_pro_labore), brl(lever.inss), brl(lever.das_v), brl(lever.das_iii)
            ),
            format!(
                "Reaching Annex III by the Fator R would take {} more pró-labore a month, and the INSS on it ({}) eats the DAS saving ({} → {}): not worth it today.",
                brl(lever.extra_pro_labore), brl(lever.inss), brl(lever.das_v), brl(lever.das_iii)
            ),
        )
    })
}
