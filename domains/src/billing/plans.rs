//! The plans on offer and their prices: the one place amounts live. Every charge is in Brazilian
//! reais (BRL), in whole centavos; the web app formats them per locale.

use crate::locale::Language;

/// A plan a user can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanId {
    Free,
    Pro,
}

/// Pro, paid monthly: R$ 100,00.
pub const PRO_MONTHLY_CENTS: i64 = 10_000;
/// Pro, one payment for a year: R$ 899,00.
pub const PRO_YEARLY_CENTS: i64 = 89_900;
/// The money-back guarantee.
pub const GUARANTEE_DAYS: i64 = 7;

/// One plan as the checkout page presents it, in one language.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    pub id: PlanId,
    pub name: String,
    pub monthly_cents: i64,
    /// Zero when the plan has no yearly payment.
    pub yearly_cents: i64,
    pub period: String,
    pub description: String,
    pub features: Vec<String>,
    pub limitations: Vec<String>,
    pub button_text: String,
    pub popular: bool,
}

impl Offer {
    /// What one yearly payment saves against twelve monthly ones.
    pub fn yearly_savings_cents(&self) -> i64 {
        if self.yearly_cents == 0 { 0 } else { self.monthly_cents * 12 - self.yearly_cents }
    }
}

/// Free, then Pro (the popular one).
pub fn offers(lang: Language) -> Vec<Offer> {
    vec![free(lang), pro(lang)]
}

fn free(lang: Language) -> Offer {
    Offer {
        id: PlanId::Free,
        name: say!(lang, "billing-plans-free"),
        monthly_cents: 0,
        yearly_cents: 0,
        period: say!(lang, "billing-plans-forever"),
        description: say!(lang, "billing-plans-to-get-to-know-s"),
        features: vec![
            say!(lang, "billing-plans-free-template"),
            say!(lang, "billing-plans-free-dashboard"),
            say!(lang, "billing-plans-free-email-support"),
        ],
        limitations: vec![
            say!(lang, "billing-plans-free-no-consultant"),
            say!(lang, "billing-plans-free-no-pdf"),
            say!(lang, "billing-plans-free-no-guidance"),
        ],
        button_text: say!(lang, "billing-plans-start-for-free"),
        popular: false,
    }
}

fn pro(lang: Language) -> Offer {
    Offer {
        id: PlanId::Pro,
        name: "Pro".to_owned(),
        monthly_cents: PRO_MONTHLY_CENTS,
        yearly_cents: PRO_YEARLY_CENTS,
        period: say!(lang, "billing-plans-month"),
        description: say!(lang, "billing-plans-your-ai-business-consultant-on"),
        features: vec![
            say!(lang, "billing-plans-pro-consultant"),
            say!(lang, "billing-plans-pro-six-steps"),
            say!(lang, "billing-plans-pro-guidance"),
            say!(lang, "billing-plans-pro-break-even"),
            say!(lang, "billing-plans-pro-pdf"),
            say!(lang, "billing-plans-pro-guarantee", days = GUARANTEE_DAYS),
        ],
        limitations: Vec::new(),
        button_text: say!(lang, "billing-plans-get-pro"),
        popular: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pro_costs_100_a_month_or_899_a_year_saving_301() {
        let pro = pro(Language::PtBr);
        assert_eq!(pro.monthly_cents, 10_000);
        assert_eq!(pro.yearly_cents, 89_900);
        assert_eq!(pro.yearly_savings_cents(), 30_100);
        assert!(pro.popular);
    }

    #[test]
    fn only_free_lists_limitations_and_it_costs_nothing() {
        let [free, pro] = <[Offer; 2]>::try_from(offers(Language::En)).unwrap();
        assert_eq!((free.id, free.monthly_cents, free.yearly_savings_cents()), (PlanId::Free, 0, 0));
        assert!(!free.limitations.is_empty());
        assert!(pro.limitations.is_empty());
    }

    #[test]
    fn both_languages_offer_the_same_plans_with_their_own_copy() {
        let pt = offers(Language::PtBr);
        let en = offers(Language::En);
        assert_eq!(pt.len(), en.len());
        for (p, e) in pt.iter().zip(&en) {
            assert_eq!((p.id, p.monthly_cents, p.features.len()), (e.id, e.monthly_cents, e.features.len()));
            assert_ne!(p.button_text, e.button_text);
        }
    }
}
