//! The payroll the taxes need: the Simples' Fator R counts 12 months of it as the law defines it
//! (LC 123/2006 art. 18 §24: wages, pró-labore, the 13th, the vacation third and FGTS), and Annex
//! IV's CPP is paid on wages and pró-labore. The finance step gives CLT wages and pró-labore a
//! month (`monthlyWages`, `monthlyProLabore`); older plans gave one figure (`monthlyPayroll`), used
//! as it is when neither is given.

use crate::proto::socio::v1 as pb;

/// A year's wages are twelve months, the 13th and the vacation third (CF art. 7º VIII and XVII).
const WAGE_MONTHS_A_YEAR: f64 = 12.0 + 1.0 + 1.0 / 3.0;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Payroll {
    /// CLT wages a month (gross).
    pub wages: Option<f64>,
    /// The owners' pró-labore a month.
    pub pro_labore: Option<f64>,
    /// One figure a month, charges included (older plans).
    pub total: Option<f64>,
}

impl Payroll {
    pub fn of(finance: &pb::FinanceData) -> Self {
        Self {
            wages: finance.monthly_wages,
            pro_labore: finance.monthly_pro_labore,
            total: finance.monthly_payroll,
        }
    }

    /// Whether anything was said of the payroll.
    pub fn given(&self) -> bool {
        self.detailed() || self.total.is_some()
    }

    /// Whether wages or pró-labore were given apart.
    pub fn detailed(&self) -> bool {
        self.wages.is_some() || self.pro_labore.is_some()
    }

    /// The 12 months' payroll of the Fator R: wages × (12 + 13th + ⅓ vacation) plus FGTS at `fgts`
    /// on all of it, plus 12 months of pró-labore (no 13th nor FGTS); an older plan's one figure ×
    /// 12. None when nothing was said.
    pub fn fator_r_year(&self, fgts: f64) -> Option<f64> {
        if self.detailed() {
            let wages = self.wages.unwrap_or(0.0).max(0.0) * WAGE_MONTHS_A_YEAR * (1.0 + fgts);
            return Some(wages + self.pro_labore.unwrap_or(0.0).max(0.0) * 12.0);
        }
        self.total.map(|t| t.max(0.0) * 12.0)
    }

    /// What the CPP is paid on, a month on average: wages with the 13th and the vacation third
    /// spread over the year, and pró-labore (the older single figure as it is).
    pub fn cpp_base(&self) -> f64 {
        if self.detailed() {
            self.wages.unwrap_or(0.0).max(0.0) * WAGE_MONTHS_A_YEAR / 12.0
                + self.pro_labore.unwrap_or(0.0).max(0.0)
        } else {
            self.total.unwrap_or(0.0).max(0.0)
        }
    }
}
