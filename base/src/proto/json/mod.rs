//! Proto messages ↔ the REST layer's JSON, by one generic rule over the descriptors:
//! field names are each field's `json_name` (camelCase unless the contract says otherwise), every
//! field is present (defaults included; unset optional fields are `null`), enum values travel as
//! their short word (`SUBSCRIPTION_STATUS_PRO` ↔ `"pro"`; the full name is accepted on input),
//! 64-bit integers are numbers, and the well-known types keep their proto3 JSON forms. `output`
//! writes a message as JSON, `input` reads one from JSON (and from a query string).

mod input;
mod output;

use prost_reflect::{EnumDescriptor, MessageDescriptor};
use serde_json::Value as Json;

pub use input::{from_json, json_to_message, json_to_struct, query_to_json};
pub use output::{AsJson, FieldAsJson, message_to_json, struct_to_json, to_json};

/// `SubscriptionStatus` → `SUBSCRIPTION_STATUS_`: the prefix every value of the enum carries.
fn enum_prefix(desc: &EnumDescriptor) -> String {
    let mut prefix = String::new();
    for (i, c) in desc.name().chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            prefix.push('_');
        }
        prefix.push(c.to_ascii_uppercase());
    }
    prefix.push('_');
    prefix
}

/// The word of an enum value: `PLAN_STATUS_IN_PROGRESS` → `in_progress`.
pub fn enum_word(desc: &EnumDescriptor, number: i32) -> Json {
    match desc.get_value(number) {
        Some(value) => {
            let prefix = enum_prefix(desc);
            let name = value.name();
            Json::String(name.strip_prefix(&prefix).unwrap_or(name).to_ascii_lowercase())
        }
        None => Json::from(number),
    }
}

fn is_well_known(desc: &MessageDescriptor) -> bool {
    desc.package_name() == "google.protobuf"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{AppError, Problem};
    use crate::proto::descriptor_pool;
    use output::float_json;
    use prost_reflect::{DynamicMessage, Value};
    use serde_json::Map;

    fn desc(name: &str) -> MessageDescriptor {
        descriptor_pool().get_message_by_name(name).unwrap()
    }

    #[test]
    fn an_integer_the_field_cannot_hold_is_a_field_error_naming_its_range() {
        let req = desc("socio.v1.RecordMonthResultsRequest");
        for too_big in [
            serde_json::json!(2_147_483_648_i64),
            serde_json::json!(-2_147_483_649_i64),
            serde_json::json!("99999999999"),
            serde_json::json!(1e300),
            serde_json::json!(2.5),
        ] {
            let err = json_to_message(&req, serde_json::json!({"salesCount": too_big.clone()})).unwrap_err();
            let AppError::InvalidInput(violations) = err else { panic!("{too_big}: {err:?}") };
            assert_eq!(violations[0].field, "salesCount", "{too_big}");
            assert_eq!(
                violations[0].problem,
                Problem::OutOfRange { min: i64::from(i32::MIN), max: i64::from(i32::MAX) },
                "{too_big}"
            );
        }
        for fits in [serde_json::json!(2_147_483_647), serde_json::json!("800"), serde_json::json!(800.0)] {
            assert!(json_to_message(&req, serde_json::json!({"salesCount": fits.clone()})).is_ok(), "{fits}");
        }
    }

    #[test]
    fn enums_travel_as_their_short_word() {
        let user = desc("socio.v1.User");
        let mut msg = DynamicMessage::new(user);
        msg.set_field_by_name("subscription_status", Value::EnumNumber(2));
        msg.set_field_by_name("role", Value::EnumNumber(2));
        let json = message_to_json(&msg);
        assert_eq!(json["subscriptionStatus"], "pro");
        assert_eq!(json["role"], "admin");
    }

    #[test]
    fn multi_word_enum_values_keep_their_underscores() {
        let progress = desc("socio.v1.GetBusinessPlanProgressResponse");
        let mut msg = DynamicMessage::new(progress);
        msg.set_field_by_name("status", Value::EnumNumber(2));
        assert_eq!(message_to_json(&msg)["status"], "in_progress");
    }

    #[test]
    fn default_values_are_present_and_unset_optionals_are_null() {
        let step = desc("socio.v1.PlanStepState");
        let json = message_to_json(&DynamicMessage::new(step));
        assert_eq!(json["completed"], false);
        assert_eq!(json["icon"], "");
        assert!(json["updatedAt"].is_null());
    }

    #[test]
    fn snake_case_json_names_of_the_contract_are_kept() {
        let prompt = desc("socio.v1.SystemPrompt");
        let json = message_to_json(&DynamicMessage::new(prompt));
        assert!(json.get("is_active").is_some() && json.get("created_at").is_some());
        assert!(json.get("isActive").is_none());
    }

    #[test]
    fn words_full_names_and_numbers_are_accepted_for_enums() {
        let req = desc("socio.v1.SetUserSubscriptionRequest");
        for input in
            [serde_json::json!("pro"), serde_json::json!("SUBSCRIPTION_STATUS_PRO"), serde_json::json!(2)]
        {
            let msg =
                json_to_message(&req, serde_json::json!({"id": "u1", "subscriptionStatus": input})).unwrap();
            assert_eq!(msg.get_field_by_name("subscription_status").unwrap().as_enum_number(), Some(2));
        }
    }

    #[test]
    fn an_unknown_enum_word_is_a_field_violation_listing_the_valid_words() {
        let req = desc("socio.v1.SetUserSubscriptionRequest");
        let err = json_to_message(&req, serde_json::json!({"subscriptionStatus": "gold"})).unwrap_err();
        let AppError::InvalidInput(violations) = err else { panic!("{err:?}") };
        assert_eq!(violations[0].field, "subscriptionStatus");
        assert_eq!(violations[0].problem, Problem::one_of(&["free", "pro"]));
    }

    #[test]
    fn query_values_are_typed_by_their_fields() {
        let req = desc("socio.v1.ListUsersRequest");
        let mut object = Map::new();
        let pairs = vec![
            ("page".to_string(), "2".to_string()),
            ("subscriptionStatus".to_string(), "pro".to_string()),
        ];
        query_to_json(&req, &pairs, &mut object).unwrap();
        let msg = json_to_message(&req, Json::Object(object)).unwrap();
        assert_eq!(msg.get_field_by_name("page").unwrap().as_i32(), Some(2));
        assert_eq!(msg.get_field_by_name("subscription_status").unwrap().as_enum_number(), Some(3));
    }

    #[test]
    fn a_non_numeric_page_is_a_field_violation() {
        let req = desc("socio.v1.ListUsersRequest");
        let err = query_to_json(&req, &[("page".into(), "two".into())], &mut Map::new()).unwrap_err();
        assert!(matches!(err, AppError::InvalidInput(v) if v[0].field == "page"));
    }

    #[test]
    fn plain_dates_are_accepted_for_timestamps() {
        let req = desc("socio.v1.GetChatHistoryRequest");
        let msg = json_to_message(&req, serde_json::json!({"id": "u", "startDate": "2026-01-31"})).unwrap();
        let Value::Message(ts) = msg.get_field_by_name("start_date").unwrap().into_owned() else { panic!() };
        assert_eq!(ts.get_field_by_name("seconds").unwrap().as_i64(), Some(1_769_817_600));
    }

    #[test]
    fn whole_amounts_are_written_as_integers() {
        assert_eq!(float_json(100.0), serde_json::json!(100));
        assert_eq!(float_json(99.9), serde_json::json!(99.9));
    }
}
