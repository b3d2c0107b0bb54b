//! The Simples Nacional: the annex from the CNAE (the facts' table, LC 123/2006 art. 18 §§5-B to
//! 5-J) or, without one, from the activity where it decides alone (commerce I, industry II); a
//! service business needs its CNAE. Activities of the Fator R are in Annex III when 12 months of
//! payroll reach 28 % of the RBT12, else in Annex V; Annex IV pays the CPP outside the DAS.

use super::{Activity, Basis, Missing, Payroll, simples_facts};
use crate::facts;

/// A Simples Nacional annex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Annex {
    I,
    II,
    III,
    IV,
    V,
}

impl Annex {
    pub fn key(self) -> &'static str {
        match self {
            Annex::I => "I",
            Annex::II => "II",
            Annex::III => "III",
            Annex::IV => "IV",
            Annex::V => "V",
        }
    }

    fn parse(key: &str) -> Option<Self> {
        Some(match key {
            "I" => Annex::I,
            "II" => Annex::II,
            "III" => Annex::III,
            "IV" => Annex::IV,
            "V" => Annex::V,
            _ => return None,
        })
    }

    /// The activity an annex taxes, for the MEI's excess and Lucro Presumido's presumption.
    pub fn activity(self) -> Activity {
        match self {
            Annex::I => Activity::Commerce,
            Annex::II => Activity::Industry,
            Annex::III | Annex::IV | Annex::V => Activity::Services,
        }
    }
}

/// How a CNAE subclass is taxed in the Simples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Treatment {
    Annex(Annex),
    /// Annex III with a Fator R of 28 % or more, else Annex V.
    FatorR,
}

/// The facts' entry of a CNAE subclass (seven digits), with its treatment.
pub fn cnae_entry(cnae: &str) -> Option<(&'static facts::CnaeEntry, Treatment)> {
    let entry = facts::taxes().cnaes.table.get(cnae)?;
    let treatment = match entry.annex.as_str() {
        "fator_r" => Treatment::FatorR,
        key => Treatment::Annex(Annex::parse(key)?),
    };
    Some((entry, treatment))
}

/// The effective Simples rate of an annex at an RBT12, with the tables in force on `day`
/// (YYYY-MM-DD): (nominal, deduction, effective); None above the Simples' ceiling.
pub fn simples_rate(annex: Annex, rbt12: f64, day: &str) -> Option<(f64, f64, f64)> {
    rate_in(simples_facts(day), annex, rbt12)
}

/// What raising the pró-labore does for a Fator R business in Annex V: the pró-labore a month more
/// that brings its Fator R to the threshold (28 %), the partner's INSS on it, the DAS in Annex V and
/// in Annex III at `revenue`, and the net saving a month.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FatorRLever {
    pub extra_pro_labore: f64,
    pub inss: f64,
    pub das_v: f64,
    pub das_iii: f64,
    pub saving: f64,
    pub threshold: f64,
    pub inss_rate: f64,
}

/// The lever for a basis in Annex V by its Fator R (None for another): 28 % of the RBT12 less the
/// 12 months' payroll, spread over 12 months of pró-labore (which counts at face value, LC 123/2006
/// art. 18 §24).
pub fn fator_r_lever(basis: &Basis, revenue: f64) -> Option<FatorRLever> {
    let Basis::Simples { annex: Annex::V, rbt12, effective, fator_r, cnae, table, .. } = basis else {
        return None;
    };
    if cnae.as_deref().and_then(cnae_entry).map(|(_, t)| t) != Some(Treatment::FatorR) || *rbt12 <= 0.0 {
        return None;
    }
    let threshold = table.fator_r.threshold;
    let missing = (threshold - fator_r.unwrap_or(0.0)).max(0.0) * rbt12;
    // Up to the centavo that reaches it (a hair of floating point is not a centavo more).
    let extra_pro_labore = (missing / 12.0 * 100.0 - 1e-6).ceil() / 100.0;
    let (_, _, iii) = rate_in(table, Annex::III, *rbt12)?;
    let inss_rate = table.fator_r.pro_labore_inss;
    let (das_v, das_iii, inss) = (revenue * effective, revenue * iii, extra_pro_labore * inss_rate);
    Some(FatorRLever {
        extra_pro_labore,
        inss,
        das_v,
        das_iii,
        saving: das_v - das_iii - inss,
        threshold,
        inss_rate,
    })
}

/// The shares of an annex's DAS at an RBT12 that are PIS + Cofins and ICMS or ISS, with the tables
/// in force on `day`; None above the Simples' ceiling. Where the ISS's share would pass the cap on
/// its effective rate (5 %, art. 18 §1º-B I: the 5th bracket of Annexes III and IV), the ISS is the
/// cap and the rest of the rate is shared by the law's table for that case (PIS + Cofins 23,46 % in
/// Annex III, 36,67 % in IV).
pub fn simples_shares(annex: Annex, rbt12: f64, day: &str) -> Option<(f64, f64)> {
    let table = simples_facts(day);
    let brackets = table.annexes.get(annex.key())?;
    let bracket = brackets.iter().position(|(up_to, _, _)| rbt12.max(0.0) <= *up_to)?;
    let &(pis_cofins, local) = table.shares.annexes.get(annex.key())?.get(bracket)?;
    let (_, _, effective) = rate_in(table, annex, rbt12)?;
    let capped = table.shares.iss_cap_to_pis_cofins.get(annex.key());
    match capped {
        Some(&to_pis_cofins) if effective * local > table.shares.iss_cap && effective > 0.0 => {
            // The rest of the rate, past the ISS's 5 %, is shared as the law's own table says.
            let local_capped = table.shares.iss_cap / effective;
            Some(((1.0 - local_capped) * to_pis_cofins, local_capped))
        }
        _ => Some((pis_cofins, local)),
    }
}

fn rate_in(table: &facts::Simples, annex: Annex, rbt12: f64) -> Option<(f64, f64, f64)> {
    let brackets = table.annexes.get(annex.key())?;
    let rbt12 = rbt12.max(0.0);
    let &(_, nominal, deduction) = brackets.iter().find(|(up_to, _, _)| rbt12 <= *up_to)?;
    let effective = if rbt12 > 0.0 { (rbt12 * nominal - deduction) / rbt12 } else { nominal };
    Some((nominal, deduction, effective.max(0.0)))
}

/// How the business is taxed: its CNAE when given and known, else its activity where that decides
/// alone; None when a service business (or a mix) needs more.
fn treatment(activity: Option<Activity>, cnae: Option<&str>) -> Result<Treatment, Missing> {
    if let Some((_, treatment)) = cnae.and_then(cnae_entry) {
        return Ok(treatment);
    }
    match activity {
        Some(Activity::Commerce) => Ok(Treatment::Annex(Annex::I)),
        Some(Activity::Industry) => Ok(Treatment::Annex(Annex::II)),
        Some(Activity::CommerceAndServices) => Err(Missing::Split),
        Some(Activity::Services) | None => Err(Missing::Cnae),
    }
}

/// Why a business is computed in the Simples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Origin {
    /// A Simples Nacional company.
    Company,
    /// A MEI past its ceiling's tolerance this year, excluded back to January (with the MEI's
    /// rules then).
    MeiExcluded(super::MeiRules),
    /// A MEI whose year before passed the ceiling: the ME it is since 1 January.
    LeftMei(super::MeiExit),
}

/// The Simples basis at `rbt12` with the tables in force on `day`. A MEI computed as the company
/// it becomes (`origin`): a service MEI's occupations without a CNAE are Annex III, said so.
pub(super) fn basis(
    activity: Option<Activity>,
    cnae: Option<String>,
    rbt12: f64,
    recorded_months: u32,
    payroll: &Payroll,
    origin: Origin,
    day: &str,
) -> Basis {
    let (from_mei, left_mei) = match origin {
        Origin::Company => (None, None),
        Origin::MeiExcluded(rules) => (Some(rules), None),
        Origin::LeftMei(exit) => (None, Some(exit)),
    };
    let regime = if from_mei.is_some() { "mei" } else { "simples_nacional" };
    let was_mei = origin != Origin::Company;
    let treatment = match (treatment(activity, cnae.as_deref()), was_mei) {
        (Ok(treatment), _) => treatment,
        (Err(Missing::Cnae), true) => Treatment::Annex(Annex::III),
        (Err(missing), _) => return Basis::Needs { regime, missing },
    };
    let facts = simples_facts(day);
    let fator_r =
        payroll.fator_r_year(facts.fator_r.fgts).filter(|_| rbt12 > 0.0).map(|payroll| payroll / rbt12);
    let annex = match treatment {
        Treatment::Annex(annex) => annex,
        // "Igual ou superior a 28 %" (art. 18 §5-J): equal counts, whatever the floating point says.
        Treatment::FatorR if fator_r.is_some_and(|r| r >= facts.fator_r.threshold - 1e-9) => Annex::III,
        Treatment::FatorR => Annex::V,
    };
    let cpp = if annex == Annex::IV { payroll.cpp_base() * facts.annex_iv_cpp.rate } else { 0.0 };
    let Some((nominal, deduction, effective)) = rate_in(facts, annex, rbt12) else {
        return Basis::NotModelled { regime: "simples_nacional" };
    };
    Basis::Simples {
        annex,
        rbt12,
        nominal,
        deduction,
        effective,
        fator_r: fator_r.filter(|_| treatment == Treatment::FatorR),
        recorded_months,
        cnae,
        cpp,
        from_mei,
        table: facts,
        left_mei,
    }
}
