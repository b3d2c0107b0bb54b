//! The MEI: the month's DAS for its activity, a fixed amount (the facts' table). A plan whose yearly
//! revenue passes the ceiling (R$ 81.000) by up to the tolerance (20 %) also pays the excess at the
//! Simples' first-bracket rate of its activity, once, with January's DAS, and leaves the MEI the
//! next year; past the tolerance it is excluded back to January and computed as the Simples company
//! it becomes (LC 123/2006 art. 18-A §7º III and §12; Res. CGSN 140/2018 arts. 100 and 105). A MEI
//! whose recorded revenue of the year before passed the ceiling is, from 1 January, the ME it
//! became (art. 18-A §7º III a) — [`MeiHistory::exit_on`] — unless the owner restated MEI in the
//! Legal step since.

use super::{Activity, Basis, MeiExcess, MeiRules, Payroll, simples};
use crate::plan::{
    sections::Step,
    store::{Plan, YearRecorded},
};
use crate::{clock::CivilDate, facts};

/// What a MEI's past says of its regime now: the year before's recorded revenue, whether the
/// business opened that year (its ceiling is then proportional), and when the Legal step last
/// changed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MeiHistory {
    pub last_year: Option<YearRecorded>,
    pub opened_last_year: bool,
    pub legal_changed_at: i64,
}

/// A MEI that passed its ceiling in `year` (the recorded months, the rest at their pace): an ME in
/// the Simples Nacional from 1 January of the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeiExit {
    pub year: i64,
    pub revenue: f64,
    pub limit: f64,
}

impl MeiHistory {
    pub fn of(plan: &Plan) -> Self {
        let stage = plan.section(Step::Idea).data["stage"].as_str();
        Self {
            last_year: plan.last_year,
            opened_last_year: matches!(stage, Some("idea" | "planning" | "started")),
            legal_changed_at: plan.section(Step::Legal).updated_at,
        }
    }

    /// On `day` (YYYY-MM-DD): the year before passed the MEI's ceiling, and the Legal step has not
    /// been changed since 1 January (a change since that still says MEI is the owner's word).
    pub fn exit_on(&self, day: &str) -> Option<MeiExit> {
        let last = self.last_year?;
        let year: i64 = day.get(..4)?.parse().ok()?;
        let new_year = CivilDate { year, month: 1, day: 1 }.starts_at();
        if last.year != year - 1 || last.months == 0 || self.legal_changed_at >= new_year {
            return None;
        }
        let ceiling = facts::calendar().ceiling.value_on(&format!("{:04}-01-01", last.year));
        let first = if self.opened_last_year { last.first_month.clamp(1, 12) } else { 1 };
        let active = 13 - first;
        let limit =
            if first > 1 { ceiling.per_month_in_opening_year * f64::from(active) } else { ceiling.yearly };
        // The months not recorded at the pace of those that were, as the ceiling's projection does.
        let unrecorded = f64::from(active.saturating_sub(last.months));
        let revenue = last.revenue + last.revenue / f64::from(last.months) * unrecorded;
        (revenue > limit + 0.005).then_some(MeiExit { year: last.year, revenue, limit })
    }
}

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
        return simples::basis(activity, cnae, yearly, 0, payroll, simples::Origin::MeiExcluded(rules), &day);
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
