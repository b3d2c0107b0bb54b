//! What a person asks to price — a product's unit cost, or a service's hours, and the shares of the
//! price (card fees, commission, other variable costs, the margin) — parsed and checked as the
//! pricing section stores it and as `money::pricing` computes it.

use super::amounts::{amount, positive, share};
use crate::{
    error::{AppError, Problem},
    proto::socio::v1 as pb,
};

/// The most hours one unit of a service may take: a year of full-time work (a project).
const MAX_HOURS_PER_UNIT: f64 = 2_000.0;

/// What the owner gives: the unit's cost in reais and the shares, each 0 to 1.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    pub unit_cost: f64,
    pub card_fee: f64,
    pub commission: f64,
    pub other_variable: f64,
    pub target_margin: f64,
    pub include_fixed_costs: bool,
    /// A service priced by the hour: hours a unit takes, billable hours a month, pró-labore wanted.
    pub hourly: Option<Hourly>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hourly {
    pub hours_per_unit: f64,
    pub billable_hours_per_month: f64,
    pub desired_pro_labore: f64,
}

impl Request {
    /// From the contract's fields, checked: the cost above zero, each percentage from 0 to 100,
    /// a service by the hour with its hours and pró-labore.
    pub fn parse(r: &pb::PriceRequest) -> Result<Self, AppError> {
        let service = match r.kind.as_str() {
            "" | "product" => false,
            "service" => true,
            _ => return Err(AppError::invalid("kind", Problem::one_of(&["product", "service"]))),
        };
        let hourly = if service && (r.hours_per_unit.is_some() || r.billable_hours_per_month.is_some()) {
            let hours = positive("hoursPerUnit", r.hours_per_unit.unwrap_or(0.0))?;
            if hours > MAX_HOURS_PER_UNIT {
                return Err(AppError::invalid(
                    "hoursPerUnit",
                    Problem::OutOfRange { min: 0, max: MAX_HOURS_PER_UNIT as i64 },
                ));
            }
            // At least an hour a month, at most every hour of a month (31 × 24): the hour's cost is
            // the month's costs over these hours, so a sliver of an hour would make it infinite.
            let billable = r.billable_hours_per_month.unwrap_or(0.0);
            if !billable.is_finite() || !(1.0..=744.0).contains(&billable) {
                return Err(AppError::invalid(
                    "billableHoursPerMonth",
                    Problem::OutOfRange { min: 1, max: 744 },
                ));
            }
            let pro_labore = amount("desiredProLabore", r.desired_pro_labore.unwrap_or(0.0))?;
            Some(Hourly {
                hours_per_unit: hours,
                billable_hours_per_month: billable,
                desired_pro_labore: pro_labore,
            })
        } else {
            None
        };
        let unit_cost = if hourly.is_some() {
            // A service's materials may be nothing: its hours are its cost.
            amount("unitCost", r.unit_cost)?
        } else {
            positive("unitCost", r.unit_cost)?
        };
        Ok(Self {
            unit_cost,
            card_fee: share("cardFeePercent", r.card_fee_percent)?,
            commission: share("commissionPercent", r.commission_percent)?,
            other_variable: share("otherVariablePercent", r.other_variable_percent)?,
            target_margin: share("targetMarginPercent", Some(r.target_margin_percent))?,
            include_fixed_costs: r.include_fixed_costs.unwrap_or(true),
            hourly,
        })
    }
}
