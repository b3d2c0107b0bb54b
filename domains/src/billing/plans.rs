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
    pub name: &'static str,
    pub monthly_cents: i64,
    /// Zero when the plan has no yearly payment.
    pub yearly_cents: i64,
    pub period: &'static str,
    pub description: &'static str,
    pub features: Vec<&'static str>,
    pub limitations: Vec<&'static str>,
    pub button_text: &'static str,
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
        name: lang.choose("Gratuito", "Free"),
        monthly_cents: 0,
        yearly_cents: 0,
        period: lang.choose("para sempre", "forever"),
        description: lang.choose(
            "Para conhecer o Sócio e começar a organizar a sua ideia.",
            "To get to know Sócio and start organising your idea.",
        ),
        features: match lang {
            Language::PtBr => vec![
                "Modelo básico de plano de negócios",
                "Painel com o progresso do seu plano",
                "Suporte por e-mail",
            ],
            Language::En => {
                vec!["Basic business plan template", "Dashboard with your plan's progress", "E-mail support"]
            }
        },
        limitations: match lang {
            Language::PtBr => vec![
                "Sem consultor de IA no WhatsApp",
                "Sem plano completo em PDF",
                "Sem orientação contínua em marketing, finanças e impostos",
            ],
            Language::En => vec![
                "No AI consultant on WhatsApp",
                "No complete plan as PDF",
                "No ongoing guidance on marketing, finance and tax",
            ],
        },
        button_text: lang.choose("Começar grátis", "Start for free"),
        popular: false,
    }
}

fn pro(lang: Language) -> Offer {
    Offer {
        id: PlanId::Pro,
        name: "Pro",
        monthly_cents: PRO_MONTHLY_CENTS,
        yearly_cents: PRO_YEARLY_CENTS,
        period: lang.choose("/mês", "/month"),
        description: lang.choose(
            "Seu consultor de negócios com IA no WhatsApp, 24 horas por dia, 7 dias por semana.",
            "Your AI business consultant on WhatsApp, 24/7. Prices in Brazilian reais (BRL).",
        ),
        features: match lang {
            Language::PtBr => vec![
                "Consultor de IA no WhatsApp 24/7",
                "Plano de negócios completo nas 6 etapas",
                "Orientação em marketing, finanças, gestão e impostos",
                "Ponto de equilíbrio e projeção de caixa de 12 meses",
                "Plano completo em PDF e Markdown",
                "Garantia de 7 dias ou seu dinheiro de volta",
            ],
            Language::En => vec![
                "AI consultant on WhatsApp 24/7",
                "Complete business plan across the 6 steps",
                "Guidance on marketing, finance, management and tax",
                "Break-even point and 12-month cash-flow projection",
                "Complete plan as PDF and Markdown",
                "7-day money-back guarantee",
            ],
        },
        limitations: Vec::new(),
        button_text: lang.choose("Assinar o Pro", "Get Pro"),
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
