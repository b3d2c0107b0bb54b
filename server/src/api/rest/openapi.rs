//! The REST layer's OpenAPI 3.1 document, generated from the same descriptors and
//! `google.api.http` annotations the transcoder routes by (served at `/api/openapi.json`): every
//! route with its path and query parameters, its body, and its answer inside the REST envelope;
//! schemas with the fields' JSON names, enums as their words, timestamps as date-time strings.

use std::collections::BTreeMap;

use prost_reflect::{Cardinality, FieldDescriptor, Kind, MessageDescriptor};
use serde_json::{Value as Json, json};

use super::routes::{BodyRule, Route, RouteTable};
use crate::proto::json::enum_word;

/// The document for every route of the table.
pub fn document(table: &RouteTable) -> Json {
    let mut schemas = BTreeMap::new();
    let mut paths: BTreeMap<String, serde_json::Map<String, Json>> = BTreeMap::new();
    for route in table.routes() {
        let operation = operation(route, &mut schemas);
        paths
            .entry(route.template())
            .or_default()
            .insert(route.method.as_str().to_ascii_lowercase(), operation);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Sócio REST API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The REST face of the gRPC services (the same calls, transcoded). Every answer is an envelope: {success, data, message} or {success: false, message, error, errors}. Send Accept-Language: pt-BR or en for the messages' language.",
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}},
        },
        "security": [{}, {"bearer": []}],
    })
}

fn operation(route: &Route, schemas: &mut BTreeMap<String, Json>) -> Json {
    let name = route.grpc_path.trim_start_matches('/').replace('/', ".");
    let path_fields = route.variables();
    let mut parameters: Vec<Json> = path_fields
        .iter()
        .map(|field| {
            let schema = route
                .input
                .get_field_by_name(field)
                .map(|f| field_schema(&f, schemas))
                .unwrap_or(json!({"type": "string"}));
            json!({"name": field, "in": "path", "required": true, "schema": schema})
        })
        .collect();
    let mut operation = serde_json::Map::new();
    operation.insert("operationId".into(), Json::String(name));
    match &route.body {
        BodyRule::None => {
            for field in route.input.fields().filter(|f| !path_fields.contains(&f.name().to_owned())) {
                if let Some(schema) = query_schema(&field, schemas) {
                    parameters.push(json!({"name": field.json_name(), "in": "query", "required": false, "schema": schema}));
                }
            }
        }
        BodyRule::Whole => {
            let schema = message_schema(&route.input, schemas);
            operation.insert(
                "requestBody".into(),
                json!({"required": true, "content": {"application/json": {"schema": schema}}}),
            );
        }
        BodyRule::Field(field) => {
            if let Some(f) = route.input.get_field_by_name(field) {
                let schema = field_schema(&f, schemas);
                operation.insert(
                    "requestBody".into(),
                    json!({"required": true, "content": {"application/json": {"schema": schema}}}),
                );
            }
        }
    }
    operation.insert("parameters".into(), Json::Array(parameters));
    let data = match &route.response_body {
        Some(field) => field_schema(field, schemas),
        None => message_schema(&route.output, schemas),
    };
    operation.insert(
        "responses".into(),
        json!({
            "200": {"description": "Done", "content": {"application/json": {"schema": {
                "type": "object",
                "required": ["success", "data"],
                "properties": {"success": {"const": true}, "data": data, "message": {"type": "string"}},
            }}}},
            "default": {"description": "Refused or failed", "content": {"application/json": {"schema": {
                "type": "object",
                "required": ["success", "message"],
                "properties": {
                    "success": {"const": false},
                    "message": {"type": "string"},
                    "error": {"type": "string"},
                    "errors": {"type": "array", "items": {"type": "object", "properties": {
                        "field": {"type": "string"}, "description": {"type": "string"}}}},
                    "retryAfter": {"type": "integer"},
                },
            }}}},
        }),
    );
    Json::Object(operation)
}

/// A field as a query parameter: scalars, enums and timestamps (and lists of them).
fn query_schema(field: &FieldDescriptor, schemas: &mut BTreeMap<String, Json>) -> Option<Json> {
    match field.kind() {
        Kind::Message(m) if m.full_name() != "google.protobuf.Timestamp" => None,
        _ => Some(field_schema(field, schemas)),
    }
}

fn field_schema(field: &FieldDescriptor, schemas: &mut BTreeMap<String, Json>) -> Json {
    if field.is_map() {
        let value = match field.kind() {
            Kind::Message(entry) => kind_schema(&entry.map_entry_value_field().kind(), schemas),
            other => kind_schema(&other, schemas),
        };
        return json!({"type": "object", "additionalProperties": value});
    }
    let single = kind_schema(&field.kind(), schemas);
    if field.cardinality() == Cardinality::Repeated {
        json!({"type": "array", "items": single})
    } else if field.supports_presence() {
        json!({"anyOf": [single, {"type": "null"}]})
    } else {
        single
    }
}

fn kind_schema(kind: &Kind, schemas: &mut BTreeMap<String, Json>) -> Json {
    match kind {
        Kind::Double | Kind::Float => json!({"type": "number"}),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => json!({"type": "integer", "format": "int32"}),
        Kind::Uint32 | Kind::Fixed32 => json!({"type": "integer", "minimum": 0}),
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => json!({"type": "integer", "format": "int64"}),
        Kind::Uint64 | Kind::Fixed64 => json!({"type": "integer", "minimum": 0}),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::String => json!({"type": "string"}),
        Kind::Bytes => json!({"type": "string", "contentEncoding": "base64"}),
        Kind::Enum(desc) => {
            let words: Vec<Json> = desc.values().map(|v| enum_word(desc, v.number())).collect();
            json!({"type": "string", "enum": words})
        }
        Kind::Message(desc) => message_schema(desc, schemas),
    }
}

/// A message's schema: well-known types inline, ours by reference (defined once).
fn message_schema(desc: &MessageDescriptor, schemas: &mut BTreeMap<String, Json>) -> Json {
    match desc.full_name() {
        "google.protobuf.Timestamp" => return json!({"type": "string", "format": "date-time"}),
        "google.protobuf.Struct" => return json!({"type": "object", "additionalProperties": true}),
        "google.protobuf.Value" => return json!({}),
        "google.protobuf.Empty" => return json!({"type": "object"}),
        _ => {}
    }
    let name = desc.full_name().to_owned();
    if !schemas.contains_key(&name) {
        schemas.insert(name.clone(), Json::Null); // recursion guard
        let properties: serde_json::Map<String, Json> =
            desc.fields().map(|f| (f.json_name().to_owned(), field_schema(&f, schemas))).collect();
        schemas.insert(name.clone(), json!({"type": "object", "properties": properties}));
    }
    json!({"$ref": format!("#/components/schemas/{name}")})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::descriptor_pool;

    fn doc() -> Json {
        document(&RouteTable::from_pool(descriptor_pool(), "socio.v1").unwrap())
    }

    #[test]
    fn every_rest_route_is_in_the_document_with_its_method() {
        let table = RouteTable::from_pool(descriptor_pool(), "socio.v1").unwrap();
        let doc = document(&table);
        for route in table.routes() {
            let method = route.method.as_str().to_ascii_lowercase();
            assert!(doc["paths"][route.template()][&method].is_object(), "{method} {}", route.template());
        }
        assert_eq!(doc["openapi"], "3.1.0");
    }

    #[test]
    fn fields_enums_timestamps_and_path_parameters_are_described_as_the_rest_layer_speaks() {
        let doc = doc();
        let offer = &doc["components"]["schemas"]["socio.v1.PlanOffer"]["properties"];
        assert_eq!(offer["buttonText"]["type"], "string");
        assert_eq!(offer["id"]["enum"], json!(["unspecified", "free", "pro"]));
        let prompt = &doc["components"]["schemas"]["socio.v1.SystemPrompt"]["properties"];
        assert!(prompt["is_active"].is_object(), "the contract's json_name is kept");
        assert_eq!(prompt["created_at"]["anyOf"][0]["format"], "date-time");
        let user = &doc["paths"]["/api/admin/users/{id}"]["get"];
        assert_eq!(
            user["parameters"][0],
            json!({"name": "id", "in": "path", "required": true, "schema": {"type": "string"}})
        );
        let list = &doc["paths"]["/api/admin/users"]["get"]["parameters"];
        assert!(
            list.as_array().unwrap().iter().any(|p| p["name"] == "subscriptionStatus" && p["in"] == "query")
        );
        let checkout = &doc["paths"]["/api/subscriptions/checkout"]["post"];
        assert_eq!(
            checkout["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/socio.v1.CreateCheckoutRequest"
        );
    }
}
