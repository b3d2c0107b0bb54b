//! Lucro Presumido, a month: PIS 0,65 % and Cofins 3 % on revenue (cumulative); IRPJ 15 % on the
//! presumed profit (8 % of revenue in commerce and industry, 32 % in services) plus 10 % on the
//! presumed profit above R$ 20.000 a month; CSLL 9 % on its presumption (12 % or 32 %); ISS on
//! services at the city's rate (5 % unless the owner says otherwise, 2 to 5 %) or ICMS on sales at
//! the effective rate the owner gives. From LC 224/2025, the presumptions are 10 % higher on the
//! revenue above R$ 5 milhões a year. Rates, presumptions and thresholds from the facts' table.

use serde_json::Value as Json;

use super::{Activity, Basis, Line, Missing, cnae_entry};
use crate::{clock, facts, locale::Language};

/// The tax on sales beside the federal ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LocalTax {
    /// ISS on services, at this rate (0 to 1).
    Iss(f64),
    /// ICMS on sales, at this effective rate (0 to 1).
    Icms(f64),
    /// ICMS on sales, rate not given: not included (said so).
    IcmsUnknown,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Presumido {
    pub activity: Activity,
    pub presumption_irpj: f64,
    pub presumption_csll: f64,
    pub local: LocalTax,
    /// LC 224/2025, when in force: presumptions × `factor` on the revenue above this a month.
    pub lc224: Option<(f64, f64)>,
    /// The rates in force on the day computed for.
    pub table: &'static facts::LucroPresumido,
}

impl Presumido {
    /// The presumed profit of a month's revenue at one presumption (LC 224's increase above its
    /// threshold included).
    fn presumed(&self, revenue: f64, presumption: f64) -> f64 {
        let above = self
            .lc224
            .map_or(0.0, |(above, factor)| (revenue - above).max(0.0) * presumption * (factor - 1.0));
        revenue * presumption + above
    }

    pub fn lines(&self, revenue: f64, lang: Language) -> Vec<Line> {
        let t = self.table;
        let irpj_base = self.presumed(revenue, self.presumption_irpj);
        let mut lines = vec![
            Line { code: "pis", name: "PIS", amount: revenue * t.pis },
            Line { code: "cofins", name: "Cofins", amount: revenue * t.cofins },
            Line { code: "irpj", name: "IRPJ", amount: irpj_base * t.irpj },
        ];
        let additional = (irpj_base - t.additional_above_monthly).max(0.0) * t.irpj_additional;
        if additional > 0.0 {
            let name = lang.choose("IRPJ (adicional)", "IRPJ (additional)");
            lines.push(Line { code: "irpj_additional", name, amount: additional });
        }
        let csll = self.presumed(revenue, self.presumption_csll) * t.csll;
        lines.push(Line { code: "csll", name: "CSLL", amount: csll });
        match self.local {
            LocalTax::Iss(rate) => lines.push(Line { code: "iss", name: "ISS", amount: revenue * rate }),
            LocalTax::Icms(rate) => lines.push(Line { code: "icms", name: "ICMS", amount: revenue * rate }),
            LocalTax::IcmsUnknown => {}
        }
        lines
    }

    fn monthly(&self, revenue: f64) -> f64 {
        self.lines(revenue, Language::PtBr).iter().map(|l| l.amount).sum()
    }

    /// `(rate, fixed)` with `monthly(r) = rate × r + fixed` on the piece holding `revenue` (the
    /// IRPJ additional and LC 224 start pieces of their own).
    pub fn linear_at(&self, revenue: f64) -> (f64, f64) {
        let rate = self.monthly(revenue + 1.0) - self.monthly(revenue);
        (rate, self.monthly(revenue) - rate * revenue)
    }

    /// The ISS's or ICMS's rate in percent, when it is included.
    pub fn local_rate(&self) -> Option<f64> {
        match self.local {
            LocalTax::Iss(rate) | LocalTax::Icms(rate) => Some(rate * 100.0),
            LocalTax::IcmsUnknown => None,
        }
    }
}

/// Lucro Presumido's basis: the activity from the CNAE (its annex's activity) or the legal step's,
/// the ISS or ICMS rate the owner gave, LC 224 when in force at `as_of`.
pub(super) fn basis(legal: &Json, activity: Option<Activity>, cnae: Option<&str>, as_of: i64) -> Basis {
    let of_cnae = cnae.and_then(cnae_entry).map(|(_, t)| match t {
        super::Treatment::Annex(annex) => annex.activity(),
        super::Treatment::FatorR => Activity::Services,
    });
    let activity = match of_cnae.or(activity) {
        Some(Activity::CommerceAndServices) => {
            return Basis::Needs { regime: "lucro_presumido", missing: Missing::Split };
        }
        Some(activity) => activity,
        None => return Basis::Needs { regime: "lucro_presumido", missing: Missing::Cnae },
    };
    let day = clock::CivilDate::in_sao_paulo(as_of).iso();
    let t = facts::taxes().lucro_presumido.value_on(&day);
    let presumption = match activity {
        Activity::Commerce => t.presumption.commerce,
        Activity::Industry => t.presumption.industry,
        _ => t.presumption.services,
    };
    let percent = |field: &str| legal[field].as_f64().map(|p| p / 100.0);
    let local = match activity {
        Activity::Services => {
            let (low, high) = t.iss_range;
            LocalTax::Iss(percent("issRatePercent").unwrap_or(t.default_iss).clamp(low, high))
        }
        _ => percent("icmsRatePercent").map_or(LocalTax::IcmsUnknown, LocalTax::Icms),
    };
    // Dated: in force from the day the facts' table says, in São Paulo.
    let in_force = day >= t.lc224.from;
    Basis::Presumido(Presumido {
        activity,
        presumption_irpj: presumption.irpj,
        presumption_csll: presumption.csll,
        local,
        lc224: in_force.then_some((t.lc224.above_yearly / 12.0, t.lc224.factor)),
        table: t,
    })
}
