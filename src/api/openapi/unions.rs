//! Tagged unions in the OpenAPI document, made for client generators: every variant a named
//! object schema (`DrawAction`, `DealtEvent`, ...), every union a `oneOf` of references with a
//! `discriminator`, and no `allOf` over a `oneOf`.
//!
//! utoipa writes a serde-tagged enum as a `oneOf` of inline objects, and a struct that flattens
//! one (as `Action` flattens its kind) as an `allOf` over that `oneOf`; several generators cannot
//! read either. This rewrites both after the document is generated.

use serde_json::{Map, Value, json};

/// A property that tells a union's variants apart.
const TAGS: [&str; 2] = ["type", "name"];

/// Rewrites every tagged union of `doc`'s schemas. `closed` lists the unions the server reads
/// strictly (unknown fields refused): their variants get `additionalProperties: false`.
pub fn name_variants(doc: &mut Value, closed: &[&str]) {
    let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let unions: Vec<String> = schemas
        .iter()
        .filter(|(_, s)| variants(schemas, s).is_some())
        .map(|(name, _)| name.clone())
        .collect();
    // A struct that flattens a union becomes the union, its own fields in every variant.
    let flattening: Vec<(String, String, Value)> = schemas
        .iter()
        .filter_map(|(name, s)| {
            let [first, extra] = s.get("allOf")?.as_array()?.as_slice() else {
                return None;
            };
            let union = first.get("$ref")?.as_str()?.strip_prefix(REF)?;
            unions
                .iter()
                .any(|u| u == union)
                .then(|| (name.clone(), union.to_string(), extra.clone()))
        })
        .collect();
    for (name, union, extra) in &flattening {
        let Some(parts) = schemas.get(union).and_then(|u| variants(schemas, u)) else {
            continue;
        };
        let parts = parts
            .into_iter()
            .map(|(tag, value, variant)| (tag, value, merge(&variant, extra)))
            .collect();
        let description = schemas
            .get(name)
            .and_then(|s| s.get("description"))
            .cloned();
        let union_schema = write_union(schemas, name, parts, closed.contains(&name.as_str()));
        set_description(schemas, name, union_schema, description);
    }
    for (_, union, _) in &flattening {
        if !referenced(schemas, union) {
            schemas.remove(union);
        }
    }
    for name in unions {
        if flattening.iter().any(|(_, u, _)| *u == name) {
            continue;
        }
        let Some(parts) = schemas.get(&name).and_then(|u| variants(schemas, u)) else {
            continue;
        };
        let description = schemas
            .get(&name)
            .and_then(|s| s.get("description"))
            .cloned();
        let union_schema = write_union(schemas, &name, parts, closed.contains(&name.as_str()));
        set_description(schemas, &name, union_schema, description);
    }
}

const REF: &str = "#/components/schemas/";

/// The variants of a tagged union: (tag property, tag value, the variant as one object schema).
fn variants(schemas: &Map<String, Value>, union: &Value) -> Option<Vec<(String, String, Value)>> {
    let items = union.get("oneOf")?.as_array()?;
    let mut out = Vec::new();
    for item in items {
        let object = resolve(schemas, item)?;
        let (tag, value) = TAGS.iter().find_map(|tag| {
            let values = object
                .get("properties")?
                .get(*tag)?
                .get("enum")?
                .as_array()?;
            match values.as_slice() {
                [Value::String(v)] => Some((tag.to_string(), v.clone())),
                _ => None,
            }
        })?;
        out.push((tag, value, object));
    }
    let first_tag = &out.first()?.0;
    out.iter().all(|(t, ..)| t == first_tag).then_some(out)
}

/// An inline object, or `allOf` of objects and references to objects, as one object schema.
fn resolve(schemas: &Map<String, Value>, item: &Value) -> Option<Value> {
    if let Some(target) = item.get("$ref").and_then(Value::as_str) {
        return resolve(schemas, schemas.get(target.strip_prefix(REF)?)?);
    }
    if let Some(parts) = item.get("allOf").and_then(Value::as_array) {
        let mut object = json!({"type": "object"});
        for part in parts {
            object = merge(&object, &resolve(schemas, part)?);
        }
        if let Some(d) = item.get("description") {
            object["description"] = d.clone();
        }
        return Some(object);
    }
    (item.get("type") == Some(&json!("object"))).then(|| item.clone())
}

/// `a` with the properties and required fields of `b` added (`b`'s description wins if `a` has none).
fn merge(a: &Value, b: &Value) -> Value {
    let mut out = a.clone();
    out["type"] = json!("object");
    let mut properties = a.get("properties").cloned().unwrap_or_else(|| json!({}));
    if let (Some(into), Some(from)) = (
        properties.as_object_mut(),
        b.get("properties").and_then(Value::as_object),
    ) {
        for (k, v) in from {
            into.insert(k.clone(), v.clone());
        }
    }
    out["properties"] = properties;
    let mut required: Vec<Value> = a
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for r in b
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if !required.contains(r) {
            required.push(r.clone());
        }
    }
    out["required"] = Value::Array(required);
    if out.get("description").is_none()
        && let Some(d) = b.get("description")
    {
        out["description"] = d.clone();
    }
    out
}

/// Adds one named schema per variant and returns the union over them.
fn write_union(
    schemas: &mut Map<String, Value>,
    union: &str,
    parts: Vec<(String, String, Value)>,
    closed: bool,
) -> Value {
    let mut refs = Vec::new();
    let mut mapping = Map::new();
    let mut tag_name = String::new();
    let examples = schemas
        .get(union)
        .and_then(|s| s.get("examples"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (tag, value, mut variant) in parts {
        let name = format!("{}{union}", pascal(&value));
        if variant.get("description").is_none() {
            variant["description"] = json!(format!("{union} of type `{value}`."));
        }
        if closed {
            variant["additionalProperties"] = json!(false);
        }
        if let Some(property) = variant.pointer_mut(&format!("/properties/{tag}")) {
            property["description"] = json!(format!("Always `{value}`: which {union} this is."));
        }
        if let Some(example) = examples.iter().find(|e| e.get(&tag) == Some(&json!(value))) {
            variant["examples"] = json!([example]);
        }
        let reference = format!("{REF}{name}");
        refs.push(json!({"$ref": reference}));
        mapping.insert(value, json!(reference));
        schemas.insert(name, variant);
        tag_name = tag;
    }
    json!({
        "oneOf": refs,
        "discriminator": {"propertyName": tag_name, "mapping": mapping},
        "examples": examples,
    })
}

fn set_description(
    schemas: &mut Map<String, Value>,
    name: &str,
    mut union: Value,
    description: Option<Value>,
) {
    if let Some(d) = description {
        union["description"] = d;
    }
    if union["examples"].as_array().is_some_and(Vec::is_empty)
        && let Some(object) = union.as_object_mut()
    {
        object.remove("examples");
    }
    schemas.insert(name.to_string(), union);
}

/// Whether any schema still names `name`.
fn referenced(schemas: &Map<String, Value>, name: &str) -> bool {
    let target = json!(format!("{REF}{name}"));
    fn walk(v: &Value, target: &Value) -> bool {
        match v {
            Value::Object(m) => {
                m.get("$ref") == Some(target) || m.values().any(|x| walk(x, target))
            }
            Value::Array(a) => a.iter().any(|x| walk(x, target)),
            _ => false,
        }
    }
    schemas.values().any(|s| walk(s, &target))
}

/// `take_upcard` → `TakeUpcard`.
fn pascal(snake: &str) -> String {
    snake
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// A property that is a nullable reference carries its description on the reference, inside
/// `oneOf`; generators read it on the property. Lifts it there.
pub fn lift_descriptions(doc: &mut Value) {
    let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for schema in schemas.values_mut() {
        let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
            continue;
        };
        for property in properties.values_mut() {
            if property.get("description").is_some() {
                continue;
            }
            let inner = ["oneOf", "allOf", "anyOf"].iter().find_map(|k| {
                property
                    .get(*k)?
                    .as_array()?
                    .iter()
                    .find_map(|item| item.get("description").cloned())
            });
            if let Some(description) = inner {
                property["description"] = description;
            }
        }
    }
}

/// A string property that holds the tag of a union (`SeatView.phase` names a `Phase`) gets the
/// union's tags as its `enum`, so that clients type it: the tags are written once, on the union.
pub fn enum_of_tags(doc: &mut Value, property: &str, union: &str) {
    let tags: Vec<Value> = doc
        .pointer(&format!(
            "/components/schemas/{union}/discriminator/mapping"
        ))
        .and_then(Value::as_object)
        .map(|mapping| mapping.keys().map(|k| Value::String(k.clone())).collect())
        .unwrap_or_default();
    if tags.is_empty() {
        return;
    }
    if let Some(schema) = doc
        .pointer_mut(&format!("/components/schemas/{property}"))
        .and_then(Value::as_object_mut)
    {
        schema.insert("enum".into(), Value::Array(tags));
    }
}
