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
    plan::{document, finance, money::format_brl, sections::Step, store::Plan},
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

/// The answer to a question the guide knows, from the facts and the plan; None for another.
pub fn answer(text: &str, plan: &Plan, lang: Language) -> Option<String> {
    let t = fold(text);
    let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    let fact = |id: &str| {
        let f = facts::get(id);
        format!("{} {}", f.text(lang), f.citation(lang))
    };
    let said = if has(&["ponto de equilibrio", "break-even", "break even", "empatar"]) {
        let data: pb::FinanceData = proto_json::from_json(plan.section(Step::Finance).data.clone()).ok()?;
        match document::plan_inputs(plan, &data).map(|i| finance::analyse(&i)) {
            Some(a) => match (a.break_even_sales, a.break_even_revenue) {
                (Some(sales), Some(revenue)) => lang.choose(
                    format!("Pelo seu plano, o ponto de equilíbrio é de {} vendas por mês ({} de faturamento), já com os impostos.", sales.ceil(), format_brl(revenue, lang)),
                    format!("By your plan, break-even is {} sales a month ({} of revenue), taxes included.", sales.ceil(), format_brl(revenue, lang)),
                ),
                _ => lang
                    .choose(
                        "Com os números de hoje não há ponto de equilíbrio: cada venda não cobre o próprio custo e os impostos.",
                        "With today's figures there is no break-even: each sale does not cover its own cost and taxes.",
                    )
                    .to_owned(),
            },
            None => lang
                .choose(
                    "Para calcular o ponto de equilíbrio preciso do ticket médio e das vendas por mês — chegamos lá na etapa de finanças.",
                    "To work out break-even I need the average ticket and the sales a month — we get there in the finance step.",
                )
                .to_owned(),
        }
    } else if has(&["dasn", "declaracao anual"]) {
        fact("mei.dasn")
    } else if has(&["das", "imposto do mei", "boleto do mei"]) {
        fact("mei.das_2026")
    } else if has(&["nota fiscal", "nfs", "nf-e", "nfe", "invoice"]) {
        fact("mei.nfse")
    } else if has(&["limite", "teto", "quanto posso faturar", "ceiling"]) {
        format!("{}\n{}", fact("mei.revenue_limit"), fact("mei.excess"))
    } else if has(&["socio", "partner"]) {
        format!("{}\n{}", fact("mei.who_cannot"), fact("legal.ltda"))
    } else if has(&["funcionario", "empregado", "employee"]) {
        fact("mei.employees")
    } else if has(&["pronampe", "emprestimo", "credito", "loan"]) {
        fact("help.pronampe")
    } else if has(&["simples", "anexo", "aliquota"]) {
        format!("{}\n{}", fact("simples.annexes"), fact("simples.effective_rate"))
    } else {
        return None;
    };
    Some(said)
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
    fn a_correction_names_its_field_and_new_value() {
        let (q, value) = correction("O custo fixo é 18 mil, não 18 milhões. Como corrijo?").unwrap();
        assert_eq!(q.field, "monthlyFixedCosts");
        assert_eq!(crate::consultant::parse::amount(&value), Some(18_000.0), "{value}");
        let (q, value) = correction("corrigir: ticket médio 55").unwrap();
        assert_eq!((q.field, crate::consultant::parse::amount(&value)), ("averageTicket", Some(55.0)));
        assert!(correction("O custo fixo é 18 mil").is_none(), "an answer, not a correction");
    }
}
