//! The six steps of the plan (Sebrae's structure) and their sections' fields, with the rules that
//! make a section valid: lengths, amounts, closed sets. Section data travels and is stored in the
//! contracts' JSON shape (`{"businessIdea": "…"}`), the same over REST, the change feed and the
//! database.

use prost::Message;
use serde_json::{Map, Value as Json};

use crate::{
    error::{AppError, FieldViolation, Problem},
    proto::{json, socio::v1 as pb},
};

/// A step of the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    Idea,
    Market,
    Finance,
    Marketing,
    Hr,
    Legal,
}

impl Step {
    pub const ALL: [Step; 6] =
        [Step::Idea, Step::Market, Step::Finance, Step::Marketing, Step::Hr, Step::Legal];

    /// The id in storage and the change feed.
    pub fn key(self) -> &'static str {
        match self {
            Step::Idea => "idea",
            Step::Market => "market",
            Step::Finance => "finance",
            Step::Marketing => "marketing",
            Step::Hr => "hr",
            Step::Legal => "legal",
        }
    }

    pub fn parse(key: &str) -> Option<Self> {
        Step::ALL.into_iter().find(|s| s.key() == key)
    }

    /// The web app's icon (lucide) for the step.
    pub fn icon(self) -> &'static str {
        match self {
            Step::Idea => "Target",
            Step::Market => "TrendingUp",
            Step::Finance => "DollarSign",
            Step::Marketing => "Megaphone",
            Step::Hr => "Users",
            Step::Legal => "Scale",
        }
    }

    pub fn proto(self) -> pb::PlanStep {
        match self {
            Step::Idea => pb::PlanStep::Idea,
            Step::Market => pb::PlanStep::Market,
            Step::Finance => pb::PlanStep::Finance,
            Step::Marketing => pb::PlanStep::Marketing,
            Step::Hr => pb::PlanStep::Hr,
            Step::Legal => pb::PlanStep::Legal,
        }
    }

    pub fn from_proto(value: i32) -> Option<Self> {
        match pb::PlanStep::try_from(value).ok()? {
            pb::PlanStep::Idea => Some(Step::Idea),
            pb::PlanStep::Market => Some(Step::Market),
            pb::PlanStep::Finance => Some(Step::Finance),
            pb::PlanStep::Marketing => Some(Step::Marketing),
            pb::PlanStep::Hr => Some(Step::Hr),
            pb::PlanStep::Legal => Some(Step::Legal),
            pb::PlanStep::Unspecified => None,
        }
    }

    /// The request field that carries this section (`ideaData`, …).
    pub fn data_field(self) -> &'static str {
        match self {
            Step::Idea => "ideaData",
            Step::Market => "marketData",
            Step::Finance => "financeData",
            Step::Marketing => "marketingData",
            Step::Hr => "hrData",
            Step::Legal => "legalData",
        }
    }
}

/// A step id from a request, or a field violation.
pub fn parse_step(field: &str, value: i32) -> Result<Step, AppError> {
    Step::from_proto(value).ok_or_else(|| {
        AppError::invalid(field, Problem::one_of(&["idea", "market", "finance", "marketing", "hr", "legal"]))
    })
}

const MAX_MONEY: f64 = 1_000_000_000.0;

struct Rules<'a> {
    prefix: &'a str,
    violations: Vec<FieldViolation>,
}

impl Rules<'_> {
    fn field(&self, name: &str) -> String {
        if self.prefix.is_empty() { name.to_owned() } else { format!("{}.{name}", self.prefix) }
    }
    fn text(&mut self, name: &str, value: &str, max: usize) {
        if value.chars().count() > max {
            self.violations.push(FieldViolation::new(self.field(name), Problem::TooLong { max }));
        }
    }
    fn list(&mut self, name: &str, values: &[String], max_items: usize, max_chars: usize) {
        if values.len() > max_items {
            self.violations.push(FieldViolation::new(
                self.field(name),
                Problem::OutOfRange { min: 0, max: max_items as i64 },
            ));
        }
        for value in values {
            self.text(name, value, max_chars);
        }
    }
    fn amount(&mut self, name: &str, value: Option<f64>, max: f64) {
        if let Some(v) = value
            && !(v.is_finite() && (0.0..=max).contains(&v))
        {
            self.violations
                .push(FieldViolation::new(self.field(name), Problem::OutOfRange { min: 0, max: max as i64 }));
        }
    }
    fn count(&mut self, name: &str, value: Option<i32>, max: i32) {
        if let Some(v) = value
            && !(0..=max).contains(&v)
        {
            self.violations
                .push(FieldViolation::new(self.field(name), Problem::OutOfRange { min: 0, max: max.into() }));
        }
    }
    fn closed<E: TryFrom<i32>>(&mut self, name: &str, value: i32, words: &[&str]) {
        if E::try_from(value).is_err() {
            self.violations.push(FieldViolation::new(self.field(name), Problem::one_of(words)));
        }
    }
}

/// Money rounded to centavos.
fn cents(value: Option<f64>) -> Option<f64> {
    value.map(|v| (v * 100.0).round() / 100.0)
}

fn finish(rules: Rules<'_>) -> Result<(), AppError> {
    if rules.violations.is_empty() { Ok(()) } else { Err(AppError::InvalidInput(rules.violations)) }
}

pub fn validate_idea(data: &pb::IdeaData, prefix: &str) -> Result<(), AppError> {
    let mut r = Rules { prefix, violations: Vec::new() };
    r.text("businessIdea", &data.business_idea, 2000);
    r.text("problem", &data.problem, 2000);
    r.text("solution", &data.solution, 2000);
    r.text("differentiator", &data.differentiator, 1000);
    r.closed::<pb::IdeaStage>("stage", data.stage, &["idea", "planning", "started", "running"]);
    finish(r)
}

pub fn validate_market(data: &pb::MarketData, prefix: &str) -> Result<(), AppError> {
    let mut r = Rules { prefix, violations: Vec::new() };
    r.text("industry", &data.industry, 200);
    r.text("targetCustomer", &data.target_customer, 1000);
    r.text("marketSize", &data.market_size, 1000);
    r.text("competitors", &data.competitors, 2000);
    r.text("location", &data.location, 200);
    r.text("strengths", &data.strengths, 1000);
    r.text("weaknesses", &data.weaknesses, 1000);
    r.text("opportunities", &data.opportunities, 1000);
    r.text("threats", &data.threats, 1000);
    finish(r)
}

pub fn validate_finance(data: &mut pb::FinanceData, prefix: &str) -> Result<(), AppError> {
    let mut r = Rules { prefix, violations: Vec::new() };
    r.amount("startupCosts", data.startup_costs, MAX_MONEY);
    r.amount("monthlyFixedCosts", data.monthly_fixed_costs, MAX_MONEY);
    r.amount("averageTicket", data.average_ticket, MAX_MONEY);
    r.amount("variableCostPerSale", data.variable_cost_per_sale, MAX_MONEY);
    r.amount("variableCostPercent", data.variable_cost_percent, 100.0);
    r.count("expectedSalesPerMonth", data.expected_sales_per_month, 10_000_000);
    r.amount("workingCapital", data.working_capital, MAX_MONEY);
    r.text("fundingSource", &data.funding_source, 500);
    r.amount("monthlyPayroll", data.monthly_payroll, MAX_MONEY);
    r.amount("monthlyWages", data.monthly_wages, MAX_MONEY);
    r.amount("monthlyProLabore", data.monthly_pro_labore, MAX_MONEY);
    data.monthly_wages = cents(data.monthly_wages);
    data.monthly_pro_labore = cents(data.monthly_pro_labore);
    data.startup_costs = cents(data.startup_costs);
    data.monthly_fixed_costs = cents(data.monthly_fixed_costs);
    data.average_ticket = cents(data.average_ticket);
    data.variable_cost_per_sale = cents(data.variable_cost_per_sale);
    data.working_capital = cents(data.working_capital);
    data.monthly_payroll = cents(data.monthly_payroll);
    finish(r)
}

pub fn validate_marketing(data: &pb::MarketingData, prefix: &str) -> Result<(), AppError> {
    let mut r = Rules { prefix, violations: Vec::new() };
    r.list("channels", &data.channels, 20, 80);
    r.text("positioning", &data.positioning, 1000);
    r.text("pricingStrategy", &data.pricing_strategy, 1000);
    r.text("launchPlan", &data.launch_plan, 2000);
    let prices = r.field("prices");
    finish(r)?;
    // Each kept price names its product and holds figures the calculator accepts.
    if data.prices.len() > MAX_PRICES {
        return Err(AppError::invalid(prices, Problem::OutOfRange { min: 0, max: MAX_PRICES as i64 }));
    }
    for (i, price) in data.prices.iter().enumerate() {
        let name = price.name.trim();
        if name.is_empty() {
            return Err(AppError::invalid(format!("{prices}[{i}].name"), Problem::Required));
        }
        if name.chars().count() > 80 || name.contains('\0') {
            return Err(AppError::invalid(format!("{prices}[{i}].name"), Problem::TooLong { max: 80 }));
        }
        let request = price.request.clone().unwrap_or_default();
        if let Err(err) = super::price_request::Request::parse(&request) {
            let field = match err {
                AppError::InvalidInput(violations) => violations.into_iter().next().map(|v| v.field),
                _ => None,
            }
            .unwrap_or_default();
            return Err(AppError::invalid(
                format!("{prices}[{i}].request.{field}"),
                Problem::Format(said!("plan-sections-format-a-cost-above-zero-and")),
            ));
        }
    }
    Ok(())
}

/// Prices a plan keeps.
pub const MAX_PRICES: usize = 20;

pub fn validate_hr(data: &pb::HrData, prefix: &str) -> Result<(), AppError> {
    let mut r = Rules { prefix, violations: Vec::new() };
    r.count("teamSize", data.team_size, 100_000);
    r.list("roles", &data.roles, 30, 80);
    r.text("hiringPlan", &data.hiring_plan, 2000);
    r.text("partners", &data.partners, 1000);
    finish(r)
}

pub fn validate_legal(data: &mut pb::LegalData, prefix: &str) -> Result<(), AppError> {
    let mut r = Rules { prefix, violations: Vec::new() };
    r.closed::<pb::BusinessType>(
        "businessType",
        data.business_type,
        &["mei", "ei", "ltda", "slu", "sa", "me", "epp", "undecided"],
    );
    r.closed::<pb::CompanySize>("companySize", data.company_size, &["me", "epp", "other", "undecided"]);
    r.closed::<pb::TaxRegime>(
        "taxRegime",
        data.tax_regime,
        &["simei", "simples_nacional", "lucro_presumido", "lucro_real", "undecided"],
    );
    r.list("licences", &data.licences, 20, 120);
    r.closed::<pb::CnpjStatus>("cnpjStatus", data.cnpj_status, &["none", "in_progress", "active"]);
    r.closed::<pb::Activity>(
        "activity",
        data.activity,
        &["commerce", "industry", "services", "commerce_and_services"],
    );
    r.closed::<pb::Profession>("profession", data.profession, &["regulated", "not_regulated"]);
    // A CNAE subclass, kept as its seven digits ("9602-5/01" → "9602501"); empty clears it.
    if !data.cnae.trim().is_empty() {
        match normalise_cnae(&data.cnae) {
            Some(cnae) => data.cnae = cnae,
            None => r.violations.push(FieldViolation::new(
                r.field("cnae"),
                Problem::Format(said!("plan-sections-format-a-7-digit-cnae-such")),
            )),
        }
    }
    // The ISS is 2 % to 5 % (LC 116/2003 arts. 8º and 8º-A); an effective ICMS, at most 35 %.
    if let Some(iss) = data.iss_rate_percent
        && !(iss.is_finite() && (2.0..=5.0).contains(&iss))
    {
        r.violations
            .push(FieldViolation::new(r.field("issRatePercent"), Problem::OutOfRange { min: 2, max: 5 }));
    }
    r.amount("icmsRatePercent", data.icms_rate_percent, 35.0);
    finish(r)
}

fn prefixed(err: AppError, prefix: &str) -> AppError {
    match err {
        AppError::InvalidInput(violations) if !prefix.is_empty() => AppError::InvalidInput(
            violations
                .into_iter()
                .map(|v| FieldViolation::new(format!("{prefix}.{}", v.field), v.problem))
                .collect(),
        ),
        other => other,
    }
}

fn check<M: Message + prost::Name + Default>(
    value: Json,
    prefix: &str,
    validate: impl FnOnce(&mut M, &str) -> Result<(), AppError>,
) -> Result<Json, AppError> {
    let mut message: M = json::from_json(value).map_err(|e| prefixed(e, prefix))?;
    validate(&mut message, prefix)?;
    Ok(json::to_json(&message))
}

/// Validates a section's data (the contracts' JSON shape) and returns it normalised: every field
/// present, enums as words, money in centavos. Violations are named under `prefix`.
pub fn validate(step: Step, data: Json, prefix: &str) -> Result<Json, AppError> {
    if !data.is_object() {
        return Err(AppError::invalid(
            prefix,
            Problem::Format(said!("plan-sections-format-must-be-an-object")),
        ));
    }
    match step {
        Step::Idea => check::<pb::IdeaData>(data, prefix, |m, p| validate_idea(m, p)),
        Step::Market => check::<pb::MarketData>(data, prefix, |m, p| validate_market(m, p)),
        Step::Finance => check::<pb::FinanceData>(data, prefix, validate_finance),
        Step::Marketing => check::<pb::MarketingData>(data, prefix, |m, p| validate_marketing(m, p)),
        Step::Hr => check::<pb::HrData>(data, prefix, |m, p| validate_hr(m, p)),
        Step::Legal => check::<pb::LegalData>(data, prefix, validate_legal),
    }
}

/// The stored section with `patch`'s fields laid over it (unknown keys dropped).
pub fn merge(stored: &Json, patch: &Json) -> Json {
    let mut merged: Map<String, Json> = stored.as_object().cloned().unwrap_or_default();
    if let Some(patch) = patch.as_object() {
        for (key, value) in patch {
            merged.insert(key.clone(), value.clone());
        }
    }
    Json::Object(merged)
}

/// True when a section has anything filled in.
pub fn has_content(step: Step, data: &Json) -> bool {
    fn filled<M: Message + prost::Name + Default>(data: &Json) -> bool {
        json::from_json::<M>(data.clone()).is_ok_and(|m| m.encoded_len() > 0)
    }
    match step {
        Step::Idea => filled::<pb::IdeaData>(data),
        Step::Market => filled::<pb::MarketData>(data),
        Step::Finance => filled::<pb::FinanceData>(data),
        Step::Marketing => filled::<pb::MarketingData>(data),
        Step::Hr => filled::<pb::HrData>(data),
        Step::Legal => filled::<pb::LegalData>(data),
    }
}

/// A CNAE subclass as seven digits, from "9602-5/01", "9602501" or "9602-5-01". None unless it
/// has exactly seven digits.
pub fn normalise_cnae(text: &str) -> Option<String> {
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let only_separators = text.chars().all(|c| c.is_ascii_digit() || " .-/".contains(c));
    (digits.len() == 7 && only_separators).then_some(digits)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_spec_s_placeholder_fields_are_real_fields() {
        for (step, field) in [
            (Step::Idea, "businessIdea"),
            (Step::Market, "industry"),
            (Step::Finance, "startupCosts"),
            (Step::Marketing, "channels"),
            (Step::Hr, "teamSize"),
            (Step::Legal, "businessType"),
        ] {
            let normalised = validate(step, json!({}), "data").unwrap();
            assert!(normalised.get(field).is_some(), "{field} in {normalised}");
        }
    }

    #[test]
    fn sections_are_normalised_with_words_and_centavos() {
        let legal = validate(Step::Legal, json!({"businessType": "MEI", "taxRegime": "simei"}), "").unwrap();
        assert_eq!(legal["businessType"], "mei");
        assert_eq!(legal["cnpjStatus"], "unspecified");
        let finance =
            validate(Step::Finance, json!({"startupCosts": 1500.456, "expectedSalesPerMonth": 300}), "")
                .unwrap();
        assert_eq!(finance["startupCosts"], 1500.46);
        assert_eq!(finance["expectedSalesPerMonth"], 300);
        assert!(finance["averageTicket"].is_null());
    }

    #[test]
    fn out_of_range_amounts_long_texts_and_unknown_words_are_violations_with_their_path() {
        let err =
            validate(Step::Finance, json!({"startupCosts": -1, "variableCostPercent": 150}), "financeData")
                .unwrap_err();
        let AppError::InvalidInput(v) = err else { panic!() };
        let fields: Vec<&str> = v.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(fields, ["financeData.startupCosts", "financeData.variableCostPercent"]);

        let err = validate(Step::Idea, json!({"businessIdea": "x".repeat(2001)}), "data").unwrap_err();
        assert!(matches!(err, AppError::InvalidInput(v) if v[0].field == "data.businessIdea"));

        let err = validate(Step::Legal, json!({"businessType": "corporation"}), "legalData").unwrap_err();
        assert!(matches!(err, AppError::InvalidInput(v) if v[0].field == "legalData.businessType"));
    }

    #[test]
    fn a_patch_overrides_only_its_fields() {
        let merged =
            merge(&json!({"industry": "Padaria", "location": "Campinas"}), &json!({"location": "Sorocaba"}));
        assert_eq!(merged, json!({"industry": "Padaria", "location": "Sorocaba"}));
    }

    #[test]
    fn an_empty_section_has_no_content() {
        assert!(!has_content(Step::Idea, &validate(Step::Idea, json!({}), "").unwrap()));
        assert!(has_content(Step::Idea, &json!({"businessIdea": "Padaria"})));
    }
}
