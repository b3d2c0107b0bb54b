//! A proto message read from the REST layer's JSON — body, path and query merged — with every
//! problem a field violation (the rule is in the parent module).

use prost::Message as _;
use prost_reflect::{
    DeserializeOptions, DynamicMessage, EnumDescriptor, FieldDescriptor, Kind, MessageDescriptor,
};
use serde_json::{Map, Value as Json};

use super::{enum_prefix, enum_word, is_well_known};
use crate::error::{AppError, FieldViolation, Problem};

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

/// A generated message from JSON in the REST layer's shape; problems are field violations.
pub fn from_json<M: prost::Message + prost::Name + Default>(input: Json) -> Result<M, AppError> {
    let desc = crate::proto::descriptor_pool()
        .get_message_by_name(&M::full_name())
        .expect("every generated message is in the descriptor set");
    let dynamic = json_to_message(&desc, input)?;
    M::decode(dynamic.encode_to_vec().as_slice()).map_err(|e| AppError::MalformedBody(e.to_string()))
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
                let format = match kind {
                    Kind::Bool => said!("input-format-true-or-false"),
                    Kind::String | Kind::Bytes => said!("input-format-a-text"),
                    _ => said!("input-format-a-number"),
                };
                violations.push(FieldViolation::new(path, Problem::Format(format)));
                return Json::Null;
            }
            // An integer the field cannot hold (`2147483648` for an int32) is named with its
            // range, before the decoder's "out of range integral type conversion attempted".
            if let Some((min, max)) = integer_range(&kind)
                && !integer_within(&value, min, max)
            {
                let clamp = |n: i128| n.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
                violations.push(FieldViolation::new(
                    path,
                    Problem::OutOfRange { min: clamp(min), max: clamp(max) },
                ));
                return Json::Null;
            }
            value
        }
    }
}

/// The values an integer field holds; None for any other kind.
fn integer_range(kind: &Kind) -> Option<(i128, i128)> {
    Some(match kind {
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => (i128::from(i64::MIN), i128::from(i64::MAX)),
        Kind::Uint32 | Kind::Fixed32 => (0, i128::from(u32::MAX)),
        Kind::Uint64 | Kind::Fixed64 => (0, i128::from(u64::MAX)),
        Kind::Double
        | Kind::Float
        | Kind::Bool
        | Kind::String
        | Kind::Bytes
        | Kind::Message(_)
        | Kind::Enum(_) => {
            return None;
        }
    })
}

/// Whether a JSON number (or a string of one) is a whole number from `min` to `max`.
fn integer_within(value: &Json, min: i128, max: i128) -> bool {
    let whole = match value {
        Json::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e30).map(|f| f as i128)),
        Json::String(s) => {
            let s = s.trim();
            s.parse::<i128>().ok().or_else(|| {
                s.parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() && f.fract() == 0.0 && f.abs() < 1e30)
                    .map(|f| f as i128)
            })
        }
        _ => None,
    };
    whole.is_some_and(|n| (min..=max).contains(&n))
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
            .ok_or(Problem::Format(said!("json-input-format-must-be-a-number"))),
        Kind::String | Kind::Bytes | Kind::Enum(_) | Kind::Message(_) => Ok(Json::String(raw.to_owned())),
    }
}
