//! A proto message as the REST layer's JSON (the rule is in the parent module).

use prost_reflect::{DynamicMessage, FieldDescriptor, Kind, MapKey, ReflectMessage, Value};
use serde_json::{Map, Value as Json};

use super::{enum_word, is_well_known};

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

pub(super) fn float_json(n: f64) -> Json {
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
    let desc = crate::proto::descriptor_pool()
        .get_message_by_name(&M::full_name())
        .expect("every generated message is in the descriptor set");
    match DynamicMessage::decode(desc, message.encode_to_vec().as_slice()) {
        Ok(dynamic) => message_to_json(&dynamic),
        Err(_) => Json::Null,
    }
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
