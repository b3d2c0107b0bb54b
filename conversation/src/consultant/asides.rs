//! What a person says beside the interview's answer, which the offline guide must not save as one:
//! a question ("Antes de tudo, quanto eu pago de DAS?", "Preciso emitir nota fiscal?", "Qual meu
//! ponto de equilíbrio?"), answered from the dated facts and the saved plan, at any step and after
//! the last; and a correction ("corrigir: o custo fixo é 18 mil", "não, o custo fixo é 18 mil, não
//! 18 milhões"), which changes the saved answer it names.

use super::questions::{QUESTIONS, Question};
use crate::{
    facts,
    identity::search::fold,
    locale::Language,
    plan::{
        money::{finance, format_brl},
        sections::Step,
        store::Plan,
    },
    proto::{json as proto_json, socio::v1 as pb},
};

/// Whether the text asks something rather than answers: a question mark, or an opening question
/// word.
pub fn is_question(text: &str) -> bool {
    let folded = fold(text.trim());
    const OPENINGS: &[&str] = &[
        "quanto",
        "quanta",
        "qual",
        "quais",
        "como",
        "posso",
        "preciso",
        "devo",
        "tenho que",
        "o que",
        "quando",
        "onde",
        "por que",
        "what",
        "how",
        "can i",
        "do i",
        "should i",
        "when",
        "which",
    ];
    text.trim_end().ends_with('?') || OPENINGS.iter().any(|w| folded.starts_with(w))
}

/// The words of a text, folded (lower case, no accents), split at anything that is not a letter or
/// a digit ("break-even" is two words, "nf-e" too). The product's own name used to address it
/// ("Sócio, quanto devo cobrar?", "oi sócio") is left out: it names who is asked, not a topic.
fn words(text: &str) -> Vec<String> {
    const GREETINGS: &[&str] =
        &["oi", "ola", "ei", "hey", "hi", "hello", "dia", "tarde", "noite", "obrigado", "obrigada"];
    let folded = fold(text);
    let mut words: Vec<String> = Vec::new();
    let mut rest = folded.as_str();
    while let Some(start) = rest.find(|c: char| c.is_alphanumeric()) {
        rest = &rest[start..];
        let end = rest.find(|c: char| !c.is_alphanumeric()).unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        let next = after.trim_start().chars().next();
        let addressed = word == "socio"
            && (words.is_empty()
                || words.last().is_some_and(|w| GREETINGS.contains(&w.as_str()))
                || next.is_none_or(|c| ",!:;.".contains(c)));
        if !addressed {
            words.push(word.to_owned());
        }
        rest = after;
    }
    words
}

/// Whether `phrase` (folded words separated by spaces) occurs in `words` as whole words, each word
/// also in its plural ("socio" finds "socios", "nota fiscal" finds "notas fiscais" by its first).
fn says(words: &[String], phrase: &str) -> bool {
    let wanted: Vec<&str> = phrase.split([' ', '-']).filter(|w| !w.is_empty()).collect();
    let matches = |word: &str, want: &str| {
        word == want
            || word.strip_suffix('s').is_some_and(|w| w == want || w.strip_suffix('e') == Some(want))
            || (want.ends_with('l') && word.strip_suffix("is") == Some(&want[..want.len() - 1]))
    };
    !wanted.is_empty()
        && words
            .windows(wanted.len())
            .any(|window| window.iter().zip(&wanted).all(|(w, want)| matches(w, want)))
}

/// Whether the text is plainly a question of theirs: it ends with a question mark.
pub fn asks(text: &str) -> bool {
    text.trim_end().ends_with('?')
}

/// The reply to a question the guide cannot place: said to be a question, with where to get an
/// answer, and nothing saved.
pub fn unplaced(lang: Language) -> String {
    say!(lang, "consultant-asides-good-question-i-can-t")
}

/// The answer to a question the guide knows, from the facts (as they stand on `day`, YYYY-MM-DD)
/// and the plan; None for another.
pub fn answer(text: &str, plan: &Plan, day: &str, lang: Language) -> Option<String> {
    let words = words(text);
    let has = |phrases: &[&str]| phrases.iter().any(|p| says(&words, p));
    let fact = |id: &str| {
        let f = facts::on(id, day);
        format!("{} {}", f.text_on(day, lang), f.citation(lang))
    };
    let said = if super::pricing_words::asks_price(&fold(text)) {
        // Before the DAS: "como calculo o preço… DAS, maquininha 3,5 %" asks a price, not the DAS.
        super::pricing_words::answer(text, plan, lang)
    } else if has(&["ponto de equilibrio", "break-even", "break even", "empatar"]) {
        break_even(plan, lang)?
    } else if has(&["ibs", "cbs"]) && has(&["fora", "dentro", "inside", "outside"]) {
        // "Devo pagar IBS e CBS por fora do DAS ou dentro?": the choice from her own plan.
        reform_choice(plan, day, lang).unwrap_or_else(|| {
            format!("{}\n{}", fact("tax_reform.simples_choice"), fact("tax_reform.simples_choice_rules"))
        })
    } else if has(&["pis", "cofins"]) {
        format!("{}\n{}", fact("tax_reform.presumido_2027"), fact("tax_reform.cbs_ibs"))
    } else if has(&["dasn", "declaracao anual"]) {
        fact("mei.dasn")
    } else if has(&["das", "imposto do mei", "boleto do mei"])
        && let Some(me) = left_mei_taxes(plan, lang)
    {
        // A MEI that passed the ceiling last year pays as the ME it became since 1 January.
        me
    } else if has(&["das", "imposto do mei", "boleto do mei"]) {
        mei_das(day, lang)
    } else if has(&["nota fiscal", "nfs", "nfs-e", "nf-e", "nfe", "invoice"]) {
        fact("mei.nfse")
    } else if has(&["salario", "clt", "carteira assinada", "aposentadoria", "salary", "pension"])
        && has(&["limite", "teto", "conta", "ceiling", "limit"])
    {
        // Only economic activities' revenue counts (Res. CGSN 140/2018 art. 2º §10; Receita Federal,
        // 28/11/2025): a salary never does.
        let no = say!(lang, "consultant-asides-no-a-salary-does-not");
        format!("{no} {}", fact("mei.revenue_limit"))
    } else if has(&["limite", "teto", "quanto posso faturar", "ceiling"]) {
        format!("{}\n{}", fact("mei.revenue_limit"), fact("mei.excess"))
    } else if has(&["socio", "partner"]) {
        format!("{}\n{}", fact("mei.who_cannot"), fact("legal.ltda"))
    } else if has(&["funcionario", "empregado", "employee"]) {
        fact("mei.employees")
    } else if has(&["pronampe", "emprestimo", "credito", "loan"]) {
        fact("help.pronampe")
    } else if has(&["anexo v", "anexo 5", "fator r"]) {
        // "Como saio do Anexo V para o III?": her own Fator R and what raising the pró-labore does.
        own_fator_r(plan, lang).unwrap_or_else(|| fact("simples.fator_r"))
    } else if has(&["simples", "anexo", "aliquota"]) {
        format!("{}\n{}", fact("simples.annexes"), fact("simples.effective_rate"))
    } else {
        return None;
    };
    Some(said)
}

/// Break-even from the plan's own figures; None when its finance step cannot be read.
fn break_even(plan: &Plan, lang: Language) -> Option<String> {
    let data: pb::FinanceData = proto_json::from_json(plan.section(Step::Finance).data.clone()).ok()?;
    Some(match finance::plan_inputs(plan, &data).map(|i| finance::analyse(&i)) {
        Some(a) => match (a.break_even_sales, a.break_even_revenue) {
            (Some(sales), Some(revenue)) => say!(
                lang,
                "consultant-asides-by-your-plan-break-even",
                sales = sales.ceil(),
                revenue = format_brl(revenue, lang)
            ),
            _ => say!(lang, "consultant-asides-with-today-s-figures-there"),
        },
        None => say!(lang, "consultant-asides-to-work-out-break-even"),
    })
}

/// The MEI's DAS in force on `day`; in December the next year's too (its value, or estimate).
fn mei_das(day: &str, lang: Language) -> String {
    let fact = |id: &str| {
        let f = facts::on(id, day);
        format!("{} {}", f.text_on(day, lang), f.citation(lang))
    };
    let next_year = day.get(..4).and_then(|y| y.parse::<i32>().ok()).map(|y| format!("{}-01-01", y + 1));
    let next = next_year.filter(|_| day.get(5..7) == Some("12")).map(|d| facts::on("mei.das", &d));
    match next.filter(|n| n.id != facts::on("mei.das", day).id) {
        Some(next) => format!("{}\n{} {}", fact("mei.das"), next.text(lang), next.citation(lang)),
        None => fact("mei.das"),
    }
}

/// A Simples company's own Fator R and what raising the pró-labore would do; None without one.
fn own_fator_r(plan: &Plan, lang: Language) -> Option<String> {
    let data: Option<pb::FinanceData> = proto_json::from_json(plan.section(Step::Finance).data.clone()).ok();
    let tax = data.as_ref().and_then(|d| finance::plan_inputs(plan, d)).map(|i| i.tax);
    match tax.as_ref().and_then(|t| crate::plan::money::taxes::lever_words(t, lang).map(|l| (t, l))) {
        Some((crate::plan::money::taxes::Basis::Simples { fator_r, .. }, lever)) => {
            let now = lang.decimal(&format!("{:.2}", fator_r.unwrap_or(0.0) * 100.0));
            Some(say!(lang, "consultant-asides-by-your-plan-your-fator", now, lever))
        }
        _ => None,
    }
}

/// The taxes of a MEI that left on 1 January (its year before passed the ceiling), in words; None
/// for any other plan.
fn left_mei_taxes(plan: &Plan, lang: Language) -> Option<String> {
    let data: pb::FinanceData = proto_json::from_json(plan.section(Step::Finance).data.clone()).ok()?;
    let tax = finance::plan_inputs(plan, &data)?.tax;
    matches!(tax, crate::plan::money::taxes::Basis::Simples { left_mei: Some(_), .. })
        .then(|| tax.explain(lang))
}

/// The IBS/CBS choice worked out from the plan of a Simples company, read on `day`; None for
/// another plan (the facts answer then).
fn reform_choice(plan: &Plan, day: &str, lang: Language) -> Option<String> {
    let today = crate::clock::CivilDate::parse_iso(day)?;
    let window = crate::plan::tracking::calendar::next_choice_window(today, facts::calendar());
    let request = crate::plan::money::reform_choice::Request::default();
    crate::plan::money::reform_choice::compare(plan, &request, today, window, lang)
        .ok()
        .map(|c| c.explanation)
}

/// A correction of a saved answer: the question it changes and the text of the new value.
pub fn correction(text: &str) -> Option<(&'static Question, String)> {
    let t = fold(text);
    let corrects = [
        "corrigir",
        "corrige",
        "corrijo",
        "corrigi",
        "correcao",
        "nao, o",
        "nao, a",
        "na verdade",
        "errei",
        "quis dizer",
    ]
    .iter()
    .any(|w| t.starts_with(w) || t.contains(&format!(" {w}")));
    if !corrects {
        return None;
    }
    const FIELDS: &[(&[&str], &str)] = &[
        (&["custo fixo", "custos fixos", "aluguel"], "monthlyFixedCosts"),
        (&["custo por venda", "custo de cada venda", "custo variavel"], "variableCostPerSale"),
        (&["ticket", "valor medio", "preco"], "averageTicket"),
        (&["investimento", "investir"], "startupCosts"),
        (&["vendas por mes", "vendas"], "expectedSalesPerMonth"),
        (&["equipe", "pessoas"], "teamSize"),
        (&["cnae"], "cnae"),
    ];
    let (at, field) = FIELDS
        .iter()
        .filter_map(|(words, field)| {
            words.iter().filter_map(|w| t.find(w).map(|at| (at + w.len(), *field))).min()
        })
        .min()?;
    let question = QUESTIONS.iter().find(|q| q.field == field)?;
    // The new value is what follows the field's name, up to a "não" that names the old one.
    let rest = &t[at..];
    let value = rest.split(", nao").next().unwrap_or(rest).split(" nao ").next().unwrap_or(rest);
    Some((question, value.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_are_told_from_answers() {
        for q in [
            "Antes de tudo, quanto eu pago de DAS por mês?",
            "Preciso emitir nota fiscal?",
            "Qual meu ponto de equilíbrio?",
            "posso ter sócio",
        ] {
            assert!(is_question(q), "{q}");
        }
        for a in ["Uma padaria artesanal", "18 mil", "Famílias do bairro"] {
            assert!(!is_question(a), "{a}");
        }
    }

    #[test]
    fn topics_match_whole_words_and_the_product_s_name_is_not_one() {
        let words = |t: &str| words(t);
        // "vendas" holds "das"; "Sócio, …" addresses us.
        assert!(!says(&words("Quantas vendas eu preciso para empatar?"), "das"));
        assert!(says(&words("Quanto eu pago de DAS?"), "das"));
        assert!(!says(&words("Sócio, quanto devo cobrar?"), "socio"));
        assert!(!says(&words("Oi sócio! Tudo bem?"), "socio"));
        assert!(says(&words("Posso ter um sócio na empresa?"), "socio"));
        assert!(says(&words("Posso ter dois sócios?"), "socio"), "plurals");
        assert!(says(&words("Preciso emitir notas fiscais?"), "nota fiscal"), "plural of both words");
        assert!(says(&words("Qual é o meu break-even?"), "break even"));
        assert!(!says(&words("Quero vender cadastros"), "das"));
    }

    fn empty_plan() -> Plan {
        crate::plan::store::from_parts(("p".into(), "u", 0, 0), &[], (0, 0), 0)
    }

    /// A plan with these legal and finance steps, read on 2027-01-05 at noon in São Paulo.
    fn plan_of(legal: &str, finance: &str) -> Plan {
        let section = |step: &str, data: &str| crate::plan::store::StoredSection {
            step: step.into(),
            data: data.into(),
            completed: true,
            updated_at: 0,
        };
        let stored = [section("legal", legal), section("finance", finance)];
        crate::plan::store::from_parts(("p".into(), "u", 0, 0), &stored, (0, 0), 1_799_161_200_000)
    }

    #[test]
    fn a_salary_never_counts_toward_the_mei_limit_and_the_guide_says_no() {
        // Res. CGSN 140/2018 art. 2º §10 (Res. CGSN 183/2025): only economic activities' revenue;
        // Receita Federal, 28/11/2025: a salary, transfers, loans and gifts do not count.
        let said = answer(
            "Meu salário da CLT conta para o limite do MEI?",
            &empty_plan(),
            "2026-12-02",
            Language::PtBr,
        )
        .unwrap();
        assert!(said.starts_with("Não: salário não conta"), "{said}");
        assert!(!said.contains("também conta"), "{said}");
        let en = answer(
            "Does my CLT salary count toward the MEI limit?",
            &empty_plan(),
            "2026-12-02",
            Language::En,
        )
        .unwrap();
        assert!(en.starts_with("No: a salary does not count"), "{en}");
    }

    #[test]
    fn asked_in_december_the_das_answer_gives_the_next_year_s_estimate_and_which_month_january_pays() {
        let december =
            answer("Quanto vai ser o DAS em 2027?", &empty_plan(), "2026-12-02", Language::PtBr).unwrap();
        assert!(december.contains("R$ 82,05") && december.contains("R$ 88,05"), "{december}");
        assert!(december.contains("estimativa") && december.contains("o de dezembro"), "{december}");
        let january = answer("Quanto é o DAS?", &empty_plan(), "2027-01-05", Language::PtBr).unwrap();
        assert!(january.contains("R$ 88,05") && !january.contains("R$ 82,05 (comércio"), "{january}");
        let june = answer("Quanto é o DAS?", &empty_plan(), "2026-06-01", Language::PtBr).unwrap();
        assert!(!june.contains("88,05"), "{june}");
    }

    #[test]
    fn a_simples_company_asking_whether_to_pay_ibs_and_cbs_outside_the_das_is_answered_from_its_own_plan() {
        let plan = plan_of(
            r#"{"businessType": "ltda", "taxRegime": "simples_nacional", "cnae": "9602501"}"#,
            r#"{"averageTicket": 100, "expectedSalesPerMonth": 300}"#,
        );
        let said =
            answer("Devo pagar IBS e CBS por fora do DAS ou dentro?", &plan, "2027-01-05", Language::PtBr)
                .unwrap();
        assert!(said.contains("Dentro do DAS: R$\u{a0}2.580,00") && said.contains("30/04/2027"), "{said}");
        assert!(!said.contains("82,05"), "never the MEI's DAS: {said}");
        // Without a Simples plan: the rule, from the facts.
        let rule = answer(
            "Devo pagar IBS e CBS por fora do DAS ou dentro?",
            &empty_plan(),
            "2027-01-05",
            Language::PtBr,
        )
        .unwrap();
        assert!(rule.contains("a cada semestre") && rule.contains("irretratável"), "{rule}");
        let pis =
            answer("Em 2027 ainda vou pagar PIS e Cofins?", &empty_plan(), "2027-01-05", Language::PtBr)
                .unwrap();
        assert!(pis.contains("PIS e Cofins acabam em 31/12/2026"), "{pis}");
    }

    #[test]
    fn asked_how_to_leave_annex_v_an_it_firm_is_told_its_fator_r_and_the_pro_labore_that_does_it() {
        let plan = plan_of(
            r#"{"taxRegime": "simples_nacional", "activity": "services", "cnae": "6204000"}"#,
            r#"{"averageTicket": 4000, "expectedSalesPerMonth": 10, "monthlyProLabore": 3000}"#,
        );
        let said = answer("Como saio do Anexo V para o III?", &plan, "2027-01-05", Language::PtBr).unwrap();
        assert!(said.contains("Fator R hoje é 7,50 %") && said.contains("R$\u{a0}8.200,00 a mais"), "{said}");
        assert!(said.contains("R$\u{a0}2.143,00"), "{said}");
    }

    #[test]
    fn a_mei_that_passed_the_ceiling_last_year_asking_its_das_is_answered_as_the_me_it_is() {
        let mut plan = plan_of(
            r#"{"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}"#,
            r#"{"averageTicket": 50, "expectedSalesPerMonth": 150}"#,
        );
        plan.last_year = Some(crate::plan::store::YearRecorded {
            year: 2026,
            revenue: 90_000.0,
            months: 12,
            first_month: 1,
        });
        let said = answer("Quanto é o meu DAS?", &plan, "2027-01-05", Language::PtBr).unwrap();
        assert!(
            said.contains("Desde 1º de janeiro de 2027 o negócio é ME") && said.contains("Anexo I"),
            "{said}"
        );
        plan.last_year = None;
        let said = answer("Quanto é o meu DAS?", &plan, "2027-01-05", Language::PtBr).unwrap();
        assert!(said.contains("R$ 88,05"), "{said}");
    }

    #[test]
    fn a_correction_names_its_field_and_new_value() {
        let (q, value) = correction("O custo fixo é 18 mil, não 18 milhões. Como corrijo?").unwrap();
        assert_eq!(q.field, "monthlyFixedCosts");
        assert_eq!(crate::consultant::parse::amount(&value), Some(18_000.0), "{value}");
        let (q, value) = correction("corrigir: ticket médio 55").unwrap();
        assert_eq!((q.field, crate::consultant::parse::amount(&value)), ("averageTicket", Some(55.0)));
        assert!(correction("O custo fixo é 18 mil").is_none(), "an answer, not a correction");
    }
}
