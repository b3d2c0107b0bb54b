//! Proto messages ↔ the REST layer's JSON, by one generic rule over the descriptors:
//! field names are each field's `json_name` (camelCase unless the contract says otherwise), every
//! field is present (defaults included; unset optional fields are `null`), enum values travel as
//! their short word (`SUBSCRIPTION_STATUS_PRO` ↔ `"pro"`; the full name is accepted on input),
//! 64-bit integers are numbers, and the well-known types keep their proto3 JSON forms.

use prost::Message as _;
use prost_reflect::{
    DeserializeOptions, DynamicMessage, EnumDescriptor, FieldDescriptor, Kind, MapKey, MessageDescriptor,
    ReflectMessage, Value,
};
use serde_json::{Map, Value as Json};

use crate::error::{AppError, FieldViolation, Problem};

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

/// The value a word (or full name, or number) names, if any.
fn enum_number(desc: &EnumDescriptor, input: &Json) -> Option<i32> {
    match input {
        Json::Number(n) => {
            n.as_i64().and_then(|n| i32::try_from(n).ok()).filter(|n| desc.get_value(*n).is_some())
        }
        Json::String(s) => {
            let upper = s.trim().to_ascii_uppercase().replace('-', "_");
            desc.get_value_by_name(&upper)
                .or_else(|| desc.get_value_by_name(&format!("{}{upper}", enum_prefix(desc))))
                .map(|v| v.number())
        }
        _ => None,
    }
}

fn enum_words(desc: &EnumDescriptor) -> Vec<String> {
    desc.values()
        .filter(|v| v.number() != 0)
        .filter_map(|v| enum_word(desc, v.number()).as_str().map(str::to_owned))
        .collect()
}

fn is_well_known(desc: &MessageDescriptor) -> bool {
    desc.package_name() == "google.protobuf"
}

/// A message as the REST layer's JSON.
pub fn message_to_json(message: &DynamicMessage) -> Json {
    let desc = message.descriptor();
    if is_well_known(&desc) {
        return serde_json::to_value(message).unwrap_or(Json::Null);
    }
    let mut object = Map::new();
    for field in desc.fields() {
        let value = if field.supports_presence() && !message.has_field(&field) {
            Json::Null
        } else {
            field_to_json(&field, &message.get_field(&field))
        };
        object.insert(field.json_name().to_owned(), value);
    }
    Json::Object(object)
}

fn field_to_json(field: &FieldDescriptor, value: &Value) -> Json {
    match value {
        Value::List(items) => Json::Array(items.iter().map(|v| value_to_json(&field.kind(), v)).collect()),
        Value::Map(entries) => {
            let value_kind = match field.kind() {
                Kind::Message(entry) => entry.map_entry_value_field().kind(),
                other => other,
            };
            let mut object = Map::new();
            for (key, v) in entries {
                object.insert(map_key_string(key), value_to_json(&value_kind, v));
            }
            Json::Object(object)
        }
        single => value_to_json(&field.kind(), single),
    }
}

fn map_key_string(key: &MapKey) -> String {
    match key {
        MapKey::Bool(b) => b.to_string(),
        MapKey::I32(n) => n.to_string(),
        MapKey::I64(n) => n.to_string(),
        MapKey::U32(n) => n.to_string(),
        MapKey::U64(n) => n.to_string(),
        MapKey::String(s) => s.clone(),
    }
}

fn value_to_json(kind: &Kind, value: &Value) -> Json {
    match (kind, value) {
        (Kind::Enum(desc), Value::EnumNumber(n)) => enum_word(desc, *n),
        (_, Value::Message(m)) => message_to_json(m),
        (_, Value::Bool(b)) => Json::Bool(*b),
        (_, Value::I32(n)) => Json::from(*n),
        (_, Value::I64(n)) => Json::from(*n),
        (_, Value::U32(n)) => Json::from(*n),
        (_, Value::U64(n)) => Json::from(*n),
        (_, Value::F32(n)) => float_json(f64::from(*n)),
        (_, Value::F64(n)) => float_json(*n),
        (_, Value::String(s)) => Json::String(s.clone()),
        (_, Value::Bytes(b)) => {
            use base64::Engine as _;
            Json::String(base64::engine::general_purpose::STANDARD.encode(b))
        }
        (_, Value::EnumNumber(n)) => Json::from(*n),
        (_, Value::List(_) | Value::Map(_)) => Json::Null,
    }
}

fn float_json(n: f64) -> Json {
    if n.is_finite() {
        // Whole amounts read as integers: 100, not 100.0.
        if n.fract() == 0.0 && n.abs() < 9.0e15 {
            Json::from(n as i64)
        } else {
            serde_json::Number::from_f64(n).map(Json::Number).unwrap_or(Json::Null)
        }
    } else if n.is_nan() {
        Json::String("NaN".into())
    } else if n > 0.0 {
        Json::String("Infinity".into())
    } else {
        Json::String("-Infinity".into())
    }
}

/// A generated message as the REST layer's JSON (enum words, every field present).
pub fn to_json<M: prost::Message + prost::Name>(message: &M) -> Json {
    let desc = super::descriptor_pool()
        .get_message_by_name(&M::full_name())
        .expect("every generated message is in the descriptor set");
    match DynamicMessage::decode(desc, message.encode_to_vec().as_slice()) {
        Ok(dynamic) => message_to_json(&dynamic),
        Err(_) => Json::Null,
    }
}

/// A generated message from JSON in the REST layer's shape; problems are field violations.
pub fn from_json<M: prost::Message + prost::Name + Default>(input: Json) -> Result<M, AppError> {
    let desc = super::descriptor_pool()
        .get_message_by_name(&M::full_name())
        .expect("every generated message is in the descriptor set");
    let dynamic = json_to_message(&desc, input)?;
    M::decode(dynamic.encode_to_vec().as_slice()).map_err(|e| AppError::MalformedBody(e.to_string()))
}

/// A `google.protobuf.Struct` as a JSON object.
pub fn struct_to_json(value: &prost_types::Struct) -> Json {
    use prost_types::value::Kind as K;
    fn one(value: &prost_types::Value) -> Json {
        match &value.kind {
            None | Some(K::NullValue(_)) => Json::Null,
            Some(K::NumberValue(n)) => float_json(*n),
            Some(K::StringValue(s)) => Json::String(s.clone()),
            Some(K::BoolValue(b)) => Json::Bool(*b),
            Some(K::StructValue(s)) => struct_to_json(s),
            Some(K::ListValue(l)) => Json::Array(l.values.iter().map(one).collect()),
        }
    }
    Json::Object(value.fields.iter().map(|(k, v)| (k.clone(), one(v))).collect())
}

/// A JSON object as a `google.protobuf.Struct` (anything else is an empty one).
pub fn json_to_struct(value: &Json) -> prost_types::Struct {
    use prost_types::value::Kind as K;
    fn one(value: &Json) -> prost_types::Value {
        let kind = match value {
            Json::Null => K::NullValue(0),
            Json::Bool(b) => K::BoolValue(*b),
            Json::Number(n) => K::NumberValue(n.as_f64().unwrap_or_default()),
            Json::String(s) => K::StringValue(s.clone()),
            Json::Array(items) => {
                K::ListValue(prost_types::ListValue { values: items.iter().map(one).collect() })
            }
            Json::Object(_) => K::StructValue(json_to_struct(value)),
        };
        prost_types::Value { kind: Some(kind) }
    }
    prost_types::Struct {
        fields: value
            .as_object()
            .map(|o| o.iter().map(|(k, v)| (k.clone(), one(v))).collect())
            .unwrap_or_default(),
    }
}

/// Builds a request message from the REST JSON (body, path and query merged). Enum words, plain
/// dates for timestamps and both field-name styles are accepted; problems are field violations.
pub fn json_to_message(desc: &MessageDescriptor, input: Json) -> Result<DynamicMessage, AppError> {
    let mut violations = Vec::new();
    let normalised = normalise_message(desc, input, "", &mut violations);
    if !violations.is_empty() {
        return Err(AppError::InvalidInput(violations));
    }
    let options = DeserializeOptions::new().deny_unknown_fields(false);
    DynamicMessage::deserialize_with_options(desc.clone(), normalised, &options)
        .map_err(|err| AppError::MalformedBody(err.to_string()))
}

fn find_field(desc: &MessageDescriptor, key: &str) -> Option<FieldDescriptor> {
    desc.get_field_by_json_name(key).or_else(|| desc.get_field_by_name(key))
}

fn normalise_message(
    desc: &MessageDescriptor,
    input: Json,
    path: &str,
    violations: &mut Vec<FieldViolation>,
) -> Json {
    if is_well_known(desc) {
        return normalise_well_known(desc, input);
    }
    let Json::Object(object) = input else {
        return input;
    };
    let mut out = Map::new();
    for (key, value) in object {
        let Some(field) = find_field(desc, &key) else {
            continue; // unknown fields are ignored, as proto3 JSON allows
        };
        let field_path = if path.is_empty() {
            field.json_name().to_owned()
        } else {
            format!("{path}.{}", field.json_name())
        };
        let value = if field.is_list() {
            match value {
                Json::Array(items) => Json::Array(
                    items.into_iter().map(|v| normalise_single(&field, v, &field_path, violations)).collect(),
                ),
                Json::Null => Json::Null,
                single => Json::Array(vec![normalise_single(&field, single, &field_path, violations)]),
            }
        } else if field.is_map() {
            value
        } else {
            normalise_single(&field, value, &field_path, violations)
        };
        out.insert(field.name().to_owned(), value);
    }
    Json::Object(out)
}

fn normalise_single(
    field: &FieldDescriptor,
    value: Json,
    path: &str,
    violations: &mut Vec<FieldViolation>,
) -> Json {
    if value.is_null() {
        return value;
    }
    match field.kind() {
        Kind::Enum(desc) => match enum_number(&desc, &value) {
            Some(n) => Json::from(n),
            None => {
                violations.push(FieldViolation::new(path, Problem::NotOneOf(enum_words(&desc))));
                Json::Null
            }
        },
        Kind::Message(desc) => normalise_message(&desc, value, path, violations),
        kind => {
            // A value of the wrong JSON type is named by its field, in the person's language,
            // before the decoder's own words ("invalid float literal") could reach them.
            if !scalar_fits(&kind, &value) {
                let (pt_br, en) = match kind {
                    Kind::Bool => ("verdadeiro ou falso (true/false)", "true or false"),
                    Kind::String | Kind::Bytes => ("um texto", "a text"),
                    _ => ("um número", "a number"),
                };
                violations.push(FieldViolation::new(path, Problem::Format { pt_br, en }));
                return Json::Null;
            }
            value
        }
    }
}

/// Whether a JSON value can be the scalar field's value, as proto3's JSON mapping allows (numbers
/// may come as strings of digits, 64-bit integers usually do; "NaN" and "Infinity" for floats).
fn scalar_fits(kind: &Kind, value: &Json) -> bool {
    let numeric_text = |s: &str| {
        let s = s.trim();
        !s.is_empty() && (s.parse::<f64>().is_ok() || matches!(s, "NaN" | "Infinity" | "-Infinity"))
    };
    match kind {
        Kind::Bool => value.is_boolean(),
        Kind::String | Kind::Bytes => value.is_string(),
        Kind::Double | Kind::Float => value.is_number() || value.as_str().is_some_and(numeric_text),
        Kind::Int32
        | Kind::Sint32
        | Kind::Sfixed32
        | Kind::Int64
        | Kind::Sint64
        | Kind::Sfixed64
        | Kind::Uint32
        | Kind::Fixed32
        | Kind::Uint64
        | Kind::Fixed64 => {
            value.is_number() || value.as_str().is_some_and(|s| s.trim().parse::<f64>().is_ok())
        }
        Kind::Message(_) | Kind::Enum(_) => true,
    }
}

/// `2026-11-21` is accepted for a timestamp, as midnight UTC.
fn normalise_well_known(desc: &MessageDescriptor, input: Json) -> Json {
    match (desc.full_name(), input) {
        ("google.protobuf.Timestamp", Json::String(s))
            if s.len() == 10 && s.as_bytes().get(4) == Some(&b'-') =>
        {
            Json::String(format!("{s}T00:00:00Z"))
        }
        (_, other) => other,
    }
}

/// Turns query parameters into JSON typed by the request's fields (`page=2` → `{"page": 2}`).
/// Dotted keys reach nested fields; repeated keys fill repeated fields.
pub fn query_to_json(
    desc: &MessageDescriptor,
    pairs: &[(String, String)],
    into: &mut Map<String, Json>,
) -> Result<(), AppError> {
    let mut violations = Vec::new();
    for (key, raw) in pairs {
        let mut current = desc.clone();
        let mut target = &mut *into;
        let parts: Vec<&str> = key.split('.').collect();
        for (i, part) in parts.iter().enumerate() {
            let Some(field) = find_field(&current, part) else {
                break; // unknown parameters (cache busters, tracking) are ignored
            };
            let name = field.json_name().to_owned();
            if i + 1 < parts.len() {
                let Kind::Message(next) = field.kind() else {
                    break;
                };
                current = next;
                let entry = target.entry(name).or_insert_with(|| Json::Object(Map::new()));
                if !entry.is_object() {
                    *entry = Json::Object(Map::new());
                }
                target = entry.as_object_mut().expect("just made an object");
                continue;
            }
            match scalar_from_text(&field, raw) {
                Ok(value) if field.is_list() => {
                    let entry = target.entry(name).or_insert_with(|| Json::Array(Vec::new()));
                    if let Json::Array(items) = entry {
                        items.push(value);
                    }
                }
                Ok(value) => {
                    target.insert(name, value);
                }
                Err(problem) => violations.push(FieldViolation::new(key.clone(), problem)),
            }
        }
    }
    if violations.is_empty() { Ok(()) } else { Err(AppError::InvalidInput(violations)) }
}

fn scalar_from_text(field: &FieldDescriptor, raw: &str) -> Result<Json, Problem> {
    let number = |min: i64, max: i64| {
        raw.trim()
            .parse::<i64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .map(Json::from)
            .ok_or(Problem::OutOfRange { min, max })
    };
    match field.kind() {
        Kind::Bool => match raw.trim().to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(Json::Bool(true)),
            "false" | "0" | "" => Ok(Json::Bool(false)),
            _ => Err(Problem::one_of(&["true", "false"])),
        },
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => number(i32::MIN.into(), i32::MAX.into()),
        Kind::Uint32 | Kind::Fixed32 => number(0, u32::MAX.into()),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 | Kind::Uint64 | Kind::Fixed64 => {
            number(i64::MIN, i64::MAX)
        }
        Kind::Float | Kind::Double => raw
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .and_then(serde_json::Number::from_f64)
            .map(Json::Number)
            .ok_or(Problem::Format { pt_br: "deve ser um número", en: "must be a number" }),
        Kind::String | Kind::Bytes | Kind::Enum(_) | Kind::Message(_) => Ok(Json::String(raw.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::descriptor_pool;

    fn desc(name: &str) -> MessageDescriptor {
        descriptor_pool().get_message_by_name(name).unwrap()
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
