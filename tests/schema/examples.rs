//! Every request example of the OpenAPI document is sent to the server, and every answer must
//! validate against the response schema the document gives for its status.

use serde_json::{Value, json};

use crate::api_support::*;

/// A validator of `schema`, resolving `#/components/...` in the document.
fn validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    let mut root = schema.clone();
    root["components"] = doc["components"].clone();
    root["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&root)
        .unwrap_or_else(|e| panic!("the schema {schema} does not build: {e}"))
}

fn check(doc: &Value, what: &str, schema: &Value, value: &Value) {
    let v = validator(doc, schema);
    let errors: Vec<String> = v
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .take(5)
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

/// The examples of a request body: the media type's, else its schema's (through a `$ref`).
fn request_examples(doc: &Value, op: &Value) -> Vec<Value> {
    let media = &op["requestBody"]["content"]["application/json"];
    let mut out: Vec<Value> = media["examples"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values().map(|e| e["value"].clone()))
        .collect();
    if let Some(e) = media.get("example") {
        out.push(e.clone());
    }
    let mut schema = &media["schema"];
    if let Some(name) = schema["$ref"].as_str() {
        schema = &doc["components"]["schemas"][&name["#/components/schemas/".len()..]];
    }
    out.extend(schema["examples"].as_array().into_iter().flatten().cloned());
    out
}

/// The path with each parameter's example in its place, and the query parameters' examples.
fn example_uri(path: &str, op: &Value) -> String {
    let mut uri = path.to_string();
    let mut query = Vec::new();
    for p in op["parameters"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap();
        let example = p["example"].clone();
        let example = if example.is_null() {
            p["schema"]["example"].clone()
        } else {
            example
        };
        let text = match &example {
            Value::String(s) => s.clone(),
            Value::Array(items) => items
                .first()
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            Value::Null => continue,
            other => other.to_string(),
        };
        match p["in"].as_str() {
            Some("path") => uri = uri.replace(&format!("{{{name}}}"), &text),
            Some("query") => query.push(format!("{name}={text}")),
            _ => {}
        }
    }
    if !query.is_empty() {
        uri = format!("{uri}?{}", query.join("&"));
    }
    uri
}

#[actix_web::test]
async fn every_request_example_is_answered_as_documented() {
    let doc = gin_rules::api::openapi::document();
    let app = Client::new(false).await;
    let mut sent = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let uri = example_uri(path, op);
            assert!(
                !uri.contains('{'),
                "{method} {path}: a path parameter has no example"
            );
            let answers = if method == "post" {
                let examples = request_examples(&doc, op);
                assert!(
                    !examples.is_empty(),
                    "{method} {path} has no request example"
                );
                let mut answers = Vec::new();
                for example in examples {
                    let a = app
                        .post_bytes(&uri, serde_json::to_vec(&example).unwrap())
                        .await;
                    answers.push((example, a));
                }
                answers
            } else {
                vec![(Value::Null, app.get_text(&uri).await)]
            };
            for (example, a) in answers {
                sent += 1;
                let status = a.status.to_string();
                let response = &op["responses"][&status];
                assert!(
                    a.status < 300 && response.is_object(),
                    "{method} {uri} answered {status} to its example {example}: {}",
                    a.text
                );
                let Some(content) = response["content"].as_object() else {
                    continue;
                };
                let (media, body) = content.iter().next().unwrap();
                assert!(
                    a.content_type.starts_with(media.as_str()),
                    "{method} {uri}: {}",
                    a.content_type
                );
                if body["schema"].is_object() {
                    check(&doc, &format!("{method} {uri}"), &body["schema"], &a.body);
                }
            }
        }
    }
    // 10 operations, two deal examples (a built-in and an authored ruleset).
    assert!(sent >= 11, "{sent} requests");
}

/// Every schema's examples validate against the schema.
#[test]
fn every_schema_example_validates() {
    let doc = gin_rules::api::openapi::document();
    // The validation can fail: a snapshot without its fields, a card that is not one.
    let snapshot = validator(&doc, &json!({"$ref": "#/components/schemas/Snapshot"}));
    assert!(!snapshot.is_valid(&json!({"status": "in_progress"})));
    let card = validator(&doc, &json!({"$ref": "#/components/schemas/Card"}));
    assert!(!card.is_valid(&json!("1D")));
    for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
        let reference = json!({"$ref": format!("#/components/schemas/{name}")});
        for example in schema["examples"].as_array().into_iter().flatten() {
            check(&doc, &format!("the example of {name}"), &reference, example);
        }
    }
}

/// Every documented error example validates against `Problem` and carries its status.
#[test]
fn every_error_example_validates() {
    let doc = gin_rules::api::openapi::document();
    let problem = json!({"$ref": "#/components/schemas/Problem"});
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for (status, response) in op["responses"].as_object().unwrap() {
                let examples = &response["content"]["application/problem+json"]["examples"];
                for (code, example) in examples.as_object().into_iter().flatten() {
                    let value = &example["value"];
                    check(&doc, &format!("{method} {path} {code}"), &problem, value);
                    assert_eq!(
                        value["status"].to_string(),
                        *status,
                        "{method} {path} {code}"
                    );
                    assert_eq!(value["type"], code.as_str());
                }
            }
        }
    }
}
