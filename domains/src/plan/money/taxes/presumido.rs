//! Lucro Presumido, a month: PIS 0,65 % and Cofins 3 % on revenue (cumulative) through 2026; IRPJ 15 % on the
//! presumed profit (8 % of revenue in commerce and industry, 32 % in services) plus 10 % on the
//! presumed profit above R$ 20.000 a month; CSLL 9 % on its presumption (12 % or 32 %); ISS on
//! services at the city's rate (5 % unless the owner says otherwise, 2 to 5 %) or ICMS on sales at
//! the effective rate the owner gives. From LC 224/2025, the presumptions are 10 % higher on the
//! revenue above R$ 5 milhões a year (the CSLL's from April 2026). From 2027 PIS and Cofins end
//! (EC 132/2023, ADCT art. 126) and the reform's CBS and IBS come in their place (LC 214/2025 arts.
//! 344 and 347), on the revenue without the ISS or ICMS, charged on top of the price ([`OnTop`]);
//! regulated intellectual professions pay 30 % less of both (art. 127) when the owner says theirs
//! is one — never assumed. Rates, presumptions and thresholds from the facts' tables.

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
    /// The CSLL's part of LC 224/2025 in force on that day (it started later than the IRPJ's).
    pub lc224_csll: bool,
    /// From 2027, the CBS and IBS on the month's sales.
    pub on_top: Option<OnTop>,
}

/// The reform's CBS and IBS of a company outside the Simples: charged on top of the price and
/// shown on the invoice, on a base without the ISS or ICMS; a business customer takes them as a
/// credit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnTop {
    pub cbs: f64,
    pub ibs: f64,
    /// Whether the owner said theirs is a regulated intellectual profession (art. 127's 30 %
    /// applied when true); None when not asked yet — then not applied, and asked.
    pub regulated: Option<bool>,
    pub table: &'static facts::CbsIbs,
    /// Set while the rate is a premise (the Senate has not fixed the reference rate).
    pub provisional: Option<&'static facts::Provisional>,
}

impl OnTop {
    /// The rates in force on `day` for a business of this activity (None before the reform's
    /// 2027 start); `regulated` as the owner answered.
    pub fn on(day: &str, regulated: Option<bool>) -> Option<Self> {
        let (period, validity) = facts::taxes().cbs_ibs.period_on(day);
        if validity == facts::Validity::Upcoming {
            return None;
        }
        let t = &period.value;
        let keep = if regulated == Some(true) { 1.0 - t.regulated_reduction } else { 1.0 };
        Some(Self {
            cbs: t.cbs() * keep,
            ibs: t.ibs() * keep,
            regulated,
            table: t,
            provisional: period.provisional.as_ref(),
        })
    }

    /// The CBS and IBS lines on a base (the price without the ISS or ICMS).
    pub fn lines(&self, base: f64) -> [Line; 2] {
        [
            Line { code: "cbs", name: "CBS".to_owned(), amount: base * self.cbs, on_top: true },
            Line { code: "ibs", name: "IBS".to_owned(), amount: base * self.ibs, on_top: true },
        ]
    }

    /// Both rates together.
    pub fn rate(&self) -> f64 {
        self.cbs + self.ibs
    }
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
        let line = |code, name: &str, amount| Line { code, name: name.to_owned(), amount, on_top: false };
        let irpj_base = self.presumed(revenue, self.presumption_irpj);
        let mut lines = Vec::new();
        if t.pis > 0.0 || t.cofins > 0.0 {
            lines.push(line("pis", "PIS", revenue * t.pis));
            lines.push(line("cofins", "Cofins", revenue * t.cofins));
        }
        lines.push(line("irpj", "IRPJ", irpj_base * t.irpj));
        let additional = (irpj_base - t.additional_above_monthly).max(0.0) * t.irpj_additional;
        if additional > 0.0 {
            lines.push(line("irpj_additional", &say!(lang, "taxes-presumido-irpj-additional"), additional));
        }
        let csll_base = if self.lc224_csll {
            self.presumed(revenue, self.presumption_csll)
        } else {
            revenue * self.presumption_csll
        };
        lines.push(line("csll", "CSLL", csll_base * t.csll));
        let local = match self.local {
            LocalTax::Iss(rate) => Some(line("iss", "ISS", revenue * rate)),
            LocalTax::Icms(rate) => Some(line("icms", "ICMS", revenue * rate)),
            LocalTax::IcmsUnknown => None,
        };
        let local_amount = local.as_ref().map_or(0.0, |l| l.amount);
        lines.extend(local);
        if let Some(on_top) = &self.on_top {
            // The base leaves the ISS and ICMS out (LC 214/2025 art. 12 §2).
            lines.extend(on_top.lines(revenue - local_amount));
        }
        lines
    }

    /// The CBS and IBS charged on top of a price (the price without its ISS or ICMS as the base),
    /// each as (code, name, rate over the price, amount); empty before 2027.
    pub fn on_top_of(&self, price: f64) -> Vec<(&'static str, String, f64, f64)> {
        let Some(on_top) = &self.on_top else { return Vec::new() };
        let local = self.local_rate().unwrap_or(0.0) / 100.0;
        on_top
            .lines(price * (1.0 - local))
            .into_iter()
            .map(|l| (l.code, l.name, if price > 0.0 { l.amount / price } else { 0.0 }, l.amount))
            .collect()
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
    // Dated: in force from the days the facts' table says, in São Paulo.
    let in_force = day >= t.lc224.from;
    let regulated = match legal["profession"].as_str() {
        Some("regulated") => Some(true),
        Some("not_regulated") => Some(false),
        _ => None,
    };
    Basis::Presumido(Presumido {
        activity,
        presumption_irpj: presumption.irpj,
        presumption_csll: presumption.csll,
        local,
        lc224: in_force.then_some((t.lc224.above_yearly / 12.0, t.lc224.factor)),
        table: t,
        lc224_csll: in_force && day >= t.lc224.csll_from,
        on_top: OnTop::on(&day, regulated.filter(|_| activity == Activity::Services)),
    })
}
