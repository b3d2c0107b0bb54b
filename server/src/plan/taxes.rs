//! Taxes in the plan's numbers, by regime, from the dated tables of `business-facts.json`
//! (`facts::taxes`; none is written here): a MEI pays the month's DAS for its activity, a fixed
//! amount; a Simples Nacional company pays the effective rate of its annex on revenue —
//! `(RBT12 × nominal rate − deduction) ÷ RBT12`, RBT12 being the plan's expected revenue × 12 until
//! the person records real months, then the revenue they recorded (`Recorded`) — with the Fator R choosing Annex III or V for services; Lucro Presumido and Lucro Real are not
//! modelled, and without a regime the numbers leave taxes out: both said plainly, never silence.

use serde_json::Value as Json;

use super::{money::format_brl, sections::Step, store::Plan};
use crate::{facts, locale::Language};

/// What the business does, as the tax tables need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    Commerce,
    Industry,
    Services,
    CommerceAndServices,
}

impl Activity {
    pub fn parse(key: &str) -> Option<Self> {
        Some(match key {
            "commerce" => Activity::Commerce,
            "industry" => Activity::Industry,
            "services" => Activity::Services,
            "commerce_and_services" => Activity::CommerceAndServices,
            _ => return None,
        })
    }

    fn name(self, lang: Language) -> &'static str {
        match self {
            Activity::Commerce => lang.choose("comércio", "commerce"),
            Activity::Industry => lang.choose("indústria", "industry"),
            Activity::Services => lang.choose("serviços", "services"),
            Activity::CommerceAndServices => lang.choose("comércio e serviços", "commerce and services"),
        }
    }
}

/// A Simples Nacional annex the plan can be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Annex {
    I,
    II,
    III,
    V,
}

impl Annex {
    pub fn key(self) -> &'static str {
        match self {
            Annex::I => "I",
            Annex::II => "II",
            Annex::III => "III",
            Annex::V => "V",
        }
    }
}

/// The revenue a person recorded in the twelve months before the current one (São Paulo): once a
/// month is recorded, the RBT12 comes from it instead of the plan's expectation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recorded {
    pub revenue: f64,
    pub months: u32,
}

impl Recorded {
    /// The RBT12 as the Simples' rules count it (Res. CGSN 140/2018 art. 22): the revenue of the
    /// twelve months before; with fewer months (a business in its first year, or months not
    /// recorded) their average × 12. None without a month.
    pub fn rbt12(self) -> Option<f64> {
        match self.months {
            0 => None,
            12.. => Some(self.revenue.max(0.0)),
            n => Some(self.revenue.max(0.0) / f64::from(n) * 12.0),
        }
    }
}

/// How the plan's taxes are worked out.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Basis {
    /// No regime chosen (or undecided): taxes are left out, and the numbers say so.
    #[default]
    NotChosen,
    /// A MEI: the DAS, a fixed amount a month.
    Mei { activity: Option<Activity>, das: f64 },
    /// The Simples Nacional: an effective rate on revenue; `recorded_months` is how many recorded
    /// months the RBT12 came from (0: the plan's expected revenue × 12).
    Simples {
        annex: Annex,
        rbt12: f64,
        nominal: f64,
        deduction: f64,
        effective: f64,
        fator_r: Option<f64>,
        recorded_months: u32,
    },
    /// Lucro Presumido or Real: not modelled.
    NotModelled { regime: &'static str },
}

impl Basis {
    /// The share of revenue paid in taxes (0 to 1).
    pub fn rate(&self) -> f64 {
        match self {
            Basis::Simples { effective, .. } => *effective,
            _ => 0.0,
        }
    }

    /// A fixed tax a month, in reais.
    pub fn fixed(&self) -> f64 {
        match self {
            Basis::Mei { das, .. } => *das,
            _ => 0.0,
        }
    }

    pub fn regime(&self) -> &'static str {
        match self {
            Basis::NotChosen => "",
            Basis::Mei { .. } => "mei",
            Basis::Simples { .. } => "simples_nacional",
            Basis::NotModelled { regime } => regime,
        }
    }

    pub fn modelled(&self) -> bool {
        matches!(self, Basis::Mei { .. } | Basis::Simples { .. })
    }

    /// What was assumed, the rate or value, and the source with its date, in the language.
    pub fn explain(&self, lang: Language) -> String {
        let brl = |v: f64| format_brl(v, lang);
        match self {
            Basis::NotChosen => lang.choose(
                "Sem impostos nas contas: o regime tributário não foi escolhido (etapa Jurídico). Escolha MEI ou Simples Nacional para ver o imposto do mês.",
                "No taxes in the numbers: no tax regime was chosen (Legal step). Choose MEI or Simples Nacional to see the month's tax.",
            )
            .into(),
            Basis::Mei { activity, das } => {
                let table = &facts::taxes().mei_das;
                let fact = facts::get(&table.fact);
                let assumed = match activity {
                    Some(a) => a.name(lang).to_owned(),
                    None => lang.choose(
                        "comércio e serviços (a atividade não foi informada: o valor mais alto)",
                        "commerce and services (no activity given: the highest value)",
                    ).to_owned(),
                };
                lang.choose(
                    format!("MEI ({assumed}): DAS fixo de {} por mês, mesmo sem faturamento {}.", brl(*das), fact.citation(lang)),
                    format!("MEI ({assumed}): a fixed DAS of {} a month, even with no revenue {}.", brl(*das), fact.citation(lang)),
                )
            }
            Basis::Simples { annex, rbt12, nominal, deduction, effective, fator_r, recorded_months } => {
                let simples = &facts::taxes().simples;
                let percent = |v: f64| {
                    let text = format!("{:.2}", v * 100.0);
                    lang.choose(text.replace('.', ","), text)
                };
                let fator = match fator_r {
                    Some(r) => lang.choose(
                        format!(" Fator R de {} % (folha ÷ receita).", percent(*r)),
                        format!(" Fator R of {} % (payroll ÷ revenue).", percent(*r)),
                    ),
                    None => String::new(),
                };
                let revenue = match recorded_months {
                    0 => lang.choose("a receita de 12 meses prevista no plano", "the plan's expected 12-month revenue").to_owned(),
                    12.. => lang.choose("a receita registrada dos últimos 12 meses", "the revenue recorded for the last 12 months").to_owned(),
                    n => lang.choose(
                        format!("a média dos {n} meses registrados × 12 (Res. CGSN 140/2018 art. 22)"),
                        format!("the average of the {n} recorded months × 12 (Res. CGSN 140/2018 art. 22)"),
                    ),
                };
                lang.choose(
                    format!(
                        "Simples Nacional, Anexo {}: alíquota efetiva de {} % = ({} × {} % − {}) ÷ {}, com {revenue}.{fator} (fonte: {}, {})",
                        annex.key(),
                        percent(*effective),
                        brl(*rbt12),
                        percent(*nominal),
                        brl(*deduction),
                        brl(*rbt12),
                        simples.source,
                        simples.as_of
                    ),
                    format!(
                        "Simples Nacional, Annex {}: an effective rate of {} % = ({} × {} % − {}) ÷ {}, on {revenue}.{fator} (source: {}, {})",
                        annex.key(),
                        percent(*effective),
                        brl(*rbt12),
                        percent(*nominal),
                        brl(*deduction),
                        brl(*rbt12),
                        simples.source,
                        simples.as_of
                    ),
                )
            }
            Basis::NotModelled { regime } => {
                let name = if *regime == "lucro_real" { "Lucro Real" } else { "Lucro Presumido" };
                let regimes = facts::get("simples.other_regimes");
                lang.choose(
                    format!("{name}: os impostos não entram nestas contas (dependem de ICMS/ISS, créditos e folha); peça a um contador a estimativa do seu caso. {} {}", regimes.text(lang), regimes.citation(lang)),
                    format!("{name}: taxes are not in these numbers (they depend on ICMS/ISS, credits and payroll); ask an accountant for your case. {} {}", regimes.text(lang), regimes.citation(lang)),
                )
            }
        }
    }
}

/// The effective Simples rate of an annex at an RBT12: None above the Simples' ceiling.
pub fn simples_rate(annex: Annex, rbt12: f64) -> Option<(f64, f64, f64)> {
    let brackets = facts::taxes().simples.annexes.get(annex.key())?;
    let rbt12 = rbt12.max(0.0);
    let &(_, nominal, deduction) = brackets.iter().find(|(up_to, _, _)| rbt12 <= *up_to)?;
    let effective = if rbt12 > 0.0 { (rbt12 * nominal - deduction) / rbt12 } else { nominal };
    Some((nominal, deduction, effective.max(0.0)))
}

/// Whether the legal step describes a MEI: the business type `mei` (whose regime is the SIMEI
/// whatever else was typed) or the regime `simei`. The one rule the taxes, the fiscal calendar and
/// the advice share.
pub fn is_mei(legal: &Json) -> bool {
    legal["businessType"].as_str() == Some("mei") || legal["taxRegime"].as_str() == Some("simei")
}

/// Whether the legal step describes a Simples Nacional company that is not a MEI.
pub fn in_simples(legal: &Json) -> bool {
    !is_mei(legal) && legal["taxRegime"].as_str() == Some("simples_nacional")
}

/// The plan's tax basis from its legal step (regime, business type, activity), the finance step's
/// expected monthly revenue and payroll, and the revenue recorded in the last twelve months.
pub fn basis(
    legal: &Json,
    monthly_revenue: f64,
    monthly_payroll: Option<f64>,
    recorded: Option<Recorded>,
) -> Basis {
    let regime = legal["taxRegime"].as_str().unwrap_or_default();
    let activity = legal["activity"].as_str().and_then(Activity::parse);
    let table = &facts::taxes().mei_das;
    if is_mei(legal) {
        let das = match activity {
            Some(Activity::Commerce) => table.commerce,
            Some(Activity::Industry) => table.industry,
            Some(Activity::Services) => table.services,
            Some(Activity::CommerceAndServices) | None => table.commerce_and_services,
        };
        return Basis::Mei { activity, das };
    }
    match regime {
        "simples_nacional" => {
            let from_results = recorded.and_then(|r| Some((r.rbt12()?, r.months.min(12))));
            let (rbt12, recorded_months) = from_results.unwrap_or((monthly_revenue.max(0.0) * 12.0, 0));
            let fator_r = monthly_payroll.filter(|_| rbt12 > 0.0).map(|p| p * 12.0 / rbt12);
            let annex = match activity {
                Some(Activity::Industry) => Annex::II,
                Some(Activity::Services) => {
                    if fator_r.is_some_and(|r| r >= facts::taxes().simples.fator_r.threshold) {
                        Annex::III
                    } else {
                        Annex::V
                    }
                }
                _ => Annex::I,
            };
            match simples_rate(annex, rbt12) {
                Some((nominal, deduction, effective)) => {
                    Basis::Simples { annex, rbt12, nominal, deduction, effective, fator_r, recorded_months }
                }
                None => Basis::NotModelled { regime: "simples_nacional" },
            }
        }
        "lucro_presumido" => Basis::NotModelled { regime: "lucro_presumido" },
        "lucro_real" => Basis::NotModelled { regime: "lucro_real" },
        _ => Basis::NotChosen,
    }
}

/// The basis of a saved plan.
pub fn of_plan(plan: &Plan, monthly_revenue: f64, monthly_payroll: Option<f64>) -> Basis {
    basis(&plan.section(Step::Legal).data, monthly_revenue, monthly_payroll, plan.recorded)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn a_bakery_in_annex_i_at_432_thousand_a_year_pays_6_29_percent() {
        let b =
            basis(&json!({"taxRegime": "simples_nacional", "activity": "commerce"}), 36_000.0, None, None);
        let Basis::Simples { annex, rbt12, nominal, deduction, effective, .. } = b else { panic!("{b:?}") };
        assert_eq!((annex, rbt12, nominal, deduction), (Annex::I, 432_000.0, 0.095, 13_860.0));
        assert!(close(effective, 27_180.0 / 432_000.0), "{effective}");
        assert_eq!(format!("{:.2}", effective * 100.0), "6.29");
        let words = b.explain(Language::PtBr);
        assert!(
            words.contains("Anexo I") && words.contains("6,29 %") && words.contains("LC 123/2006"),
            "{words}"
        );
    }

    #[test]
    fn each_annex_s_bracket_gives_its_effective_rate() {
        // The first bracket is the nominal rate; later ones subtract the deduction.
        assert_eq!(simples_rate(Annex::I, 150_000.0).unwrap().2, 0.04);
        assert!(close(
            simples_rate(Annex::II, 600_000.0).unwrap().2,
            (600_000.0 * 0.10 - 13_860.0) / 600_000.0
        ));
        assert!(close(
            simples_rate(Annex::III, 300_000.0).unwrap().2,
            (300_000.0 * 0.112 - 9_360.0) / 300_000.0
        ));
        assert!(close(
            simples_rate(Annex::V, 1_000_000.0).unwrap().2,
            (1_000_000.0 * 0.205 - 17_100.0) / 1_000_000.0
        ));
        assert!(simples_rate(Annex::I, 5_000_000.0).is_none(), "above the Simples' ceiling");
    }

    #[test]
    fn services_go_to_annex_iii_with_a_fator_r_of_28_percent_or_more_else_to_annex_v() {
        let legal = json!({"taxRegime": "simples_nacional", "activity": "services"});
        let low = basis(&legal, 20_000.0, Some(2_000.0), None);
        assert!(matches!(low, Basis::Simples { annex: Annex::V, .. }), "{low:?}");
        let high = basis(&legal, 20_000.0, Some(6_000.0), None);
        let Basis::Simples { annex, fator_r, .. } = high else { panic!("{high:?}") };
        assert_eq!((annex, fator_r), (Annex::III, Some(0.3)));
        assert!(
            matches!(basis(&legal, 20_000.0, None, None), Basis::Simples { annex: Annex::V, .. }),
            "no payroll: Annex V"
        );
    }

    #[test]
    fn a_mei_pays_the_das_of_its_activity_and_other_regimes_are_said_plainly() {
        let commerce = basis(
            &json!({"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}),
            5_000.0,
            None,
            None,
        );
        assert_eq!(commerce, Basis::Mei { activity: Some(Activity::Commerce), das: 82.05 });
        let services = basis(&json!({"taxRegime": "simei", "activity": "services"}), 5_000.0, None, None);
        assert_eq!(services.fixed(), 86.05);
        let unknown = basis(&json!({"businessType": "mei"}), 5_000.0, None, None);
        assert_eq!(unknown.fixed(), 87.05, "no activity: the highest DAS, said so");
        assert!(unknown.explain(Language::PtBr).contains("não foi informada"));
        let presumido = basis(&json!({"taxRegime": "lucro_presumido"}), 50_000.0, None, None);
        assert!(
            !presumido.modelled() && presumido.explain(Language::PtBr).contains("não entram nestas contas")
        );
        let none = basis(&json!({}), 50_000.0, None, None);
        assert_eq!(none, Basis::NotChosen);
        assert!(none.explain(Language::En).contains("No taxes in the numbers"));
    }
}
