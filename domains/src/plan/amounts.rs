//! The rules for a figure a person gives the plan, from any door (the builder, the API, the model's
//! tools): an amount in reais, a percentage, a value above zero — each checked, or a field-named
//! error that changes nothing.

use crate::error::{AppError, Problem};

/// The largest amount a request may hold, in reais (a typo's guard, far above any small business).
const MAX_AMOUNT: f64 = 1.0e11;

/// An amount in reais from a request: finite, not negative, not absurd.
pub fn amount(field: &str, value: f64) -> Result<f64, AppError> {
    if !value.is_finite() || value < 0.0 {
        return Err(AppError::invalid(
            field,
            Problem::Format(said!("plan-amounts-format-an-amount-in-reais-zero")),
        ));
    }
    if value > MAX_AMOUNT {
        return Err(AppError::invalid(field, Problem::OutOfRange { min: 0, max: MAX_AMOUNT as i64 }));
    }
    Ok((value * 100.0).round() / 100.0)
}

/// A percentage from 0 to 100 (absent: 0), as a share from 0 to 1.
pub fn share(field: &str, percent: Option<f64>) -> Result<f64, AppError> {
    let percent = percent.unwrap_or(0.0);
    if !percent.is_finite() || !(0.0..=100.0).contains(&percent) {
        return Err(AppError::invalid(field, Problem::OutOfRange { min: 0, max: 100 }));
    }
    Ok(percent / 100.0)
}

/// A value above zero and below a billion.
pub fn positive(field: &str, value: f64) -> Result<f64, AppError> {
    if !value.is_finite() || value <= 0.0 || value > 1.0e9 {
        return Err(AppError::invalid(
            field,
            Problem::Format(said!("plan-amounts-format-a-value-above-zero")),
        ));
    }
    Ok(value)
}
