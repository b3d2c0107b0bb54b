//! The MEI: the month's DAS for its activity, a fixed amount (the facts' table). A plan whose yearly
//! revenue passes the ceiling (R$ 81.000) by up to the tolerance (20 %) also pays the excess at the
//! Simples' first-bracket rate of its activity, once, with January's DAS, and leaves the MEI the
//! next year; past the tolerance it is excluded back to January and computed as the Simples company
//! it becomes (LC 123/2006 art. 18-A §7º III and §12; Res. CGSN 140/2018 arts. 100 and 105).

use super::{Activity, Basis, MeiExcess, MeiRules, Payroll, simples};
use crate::facts;

pub(super) fn basis(
    activity: Option<Activity>,
    cnae: Option<String>,
    monthly_revenue: f64,
    payroll: &Payroll,
    as_of: i64,
) -> Basis {
    let taxes = facts::taxes();
    // Every figure is the one in force on the day computed for.
    let day = crate::clock::CivilDate::in_sao_paulo(as_of).iso();
    let rules = MeiRules::on(&day);
    let ceiling = rules.ceiling;
    let yearly = monthly_revenue.max(0.0) * 12.0;
    if yearly > ceiling.tolerated() {
        // Excluded back to January: a Simples company on this year's revenue.
        return simples::basis(activity, cnae, yearly, 0, payroll, Some(rules), &day);
    }
    // The DAS of the period holding the day; past the last, the last, said stale.
    let (period, validity) = taxes.mei_das.period_on(&day);
    let table = &period.value;
    let expired = match validity {
        facts::Validity::Expired { until } => Some(until),
        _ => None,
    };
    let das = match activity {
        Some(Activity::Commerce) => table.commerce,
        Some(Activity::Industry) => table.industry,
        Some(Activity::Services) => table.services,
        Some(Activity::CommerceAndServices) | None => table.commerce_and_services,
    };
    let excess = (yearly > ceiling.yearly).then_some(MeiExcess {
        yearly_revenue: yearly,
        excess: yearly - ceiling.yearly,
        // Without the activity, or with both, the highest of the first-bracket rates (said so).
        rate: match activity {
            Some(Activity::Commerce) => rules.excess.excess_rates.commerce,
            Some(Activity::Industry) => rules.excess.excess_rates.industry,
            _ => rules.excess.excess_rates.services,
        },
    });
    let estimate = period.provisional.as_ref().filter(|_| expired.is_none());
    Basis::Mei { activity, das, excess, expired, fact: &table.fact, estimate, rules }
}
