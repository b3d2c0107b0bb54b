//! A proto message as the REST layer's JSON (the rule is in the parent module).

use prost_reflect::{DynamicMessage, FieldDescriptor, Kind, MapKey, ReflectMessage, Value};
use serde::{
    Serialize, Serializer,
    ser::{SerializeMap, SerializeSeq},
};
use serde_json::Value as Json;

use super::{enum_word, is_well_known};

/// A message as the REST layer's JSON.
pub fn message_to_json(message: &DynamicMessage) -> Json {
    serde_json::to_value(AsJson(message)).unwrap_or(Json::Null)
}

/// A message as the REST layer's JSON, written straight to a serializer: the REST reply is
/// written without building a tree of values first.
pub struct AsJson<'a>(pub &'a DynamicMessage);

impl Serialize for AsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let message = self.0;
        let desc = message.descriptor();
        if is_well_known(&desc) {
            return message.serialize(serializer);
        }
        let mut object = serializer.serialize_map(Some(desc.fields().len()))?;
        for field in desc.fields() {
            object.serialize_entry(field.json_name(), &FieldAsJson { message, field: &field })?;
        }
        object.end()
    }
}

/// One field of a message as the REST layer's JSON: `null` when the field has presence and is
/// unset.
pub struct FieldAsJson<'a> {
    pub message: &'a DynamicMessage,
    pub field: &'a FieldDescriptor,
}

impl Serialize for FieldAsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let field = self.field;
        if field.supports_presence() && !self.message.has_field(field) {
            return serializer.serialize_none();
        }
        let kind = field.kind();
        match self.message.get_field(field).as_ref() {
            Value::List(items) => {
                let mut list = serializer.serialize_seq(Some(items.len()))?;
                for value in items {
                    list.serialize_element(&ValueAsJson { kind: &kind, value })?;
                }
                list.end()
            }
            Value::Map(entries) => {
                let value_kind = match kind {
                    Kind::Message(entry) => entry.map_entry_value_field().kind(),
                    other => other,
                };
                let mut object = serializer.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    object
                        .serialize_entry(&map_key_string(key), &ValueAsJson { kind: &value_kind, value })?;
                }
                object.end()
            }
            single => ValueAsJson { kind: &kind, value: single }.serialize(serializer),
        }
    }
}

/// One value of a field of `kind`.
struct ValueAsJson<'a> {
    kind: &'a Kind,
    value: &'a Value,
}

impl Serialize for ValueAsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match (self.kind, self.value) {
            (Kind::Enum(desc), Value::EnumNumber(n)) => enum_word(desc, *n).serialize(serializer),
            (_, Value::Message(m)) => AsJson(m).serialize(serializer),
            (_, Value::Bool(b)) => serializer.serialize_bool(*b),
            (_, Value::I32(n)) => serializer.serialize_i32(*n),
            (_, Value::I64(n)) => serializer.serialize_i64(*n),
            (_, Value::U32(n)) => serializer.serialize_u32(*n),
            (_, Value::U64(n)) => serializer.serialize_u64(*n),
            (_, Value::F32(n)) => float_json(f64::from(*n)).serialize(serializer),
            (_, Value::F64(n)) => float_json(*n).serialize(serializer),
            (_, Value::String(s)) => serializer.serialize_str(s),
            (_, Value::Bytes(b)) => {
                use base64::Engine as _;
                serializer.serialize_str(&base64::engine::general_purpose::STANDARD.encode(b))
            }
            (_, Value::EnumNumber(n)) => serializer.serialize_i32(*n),
            (_, Value::List(_) | Value::Map(_)) => serializer.serialize_unit(),
        }
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
