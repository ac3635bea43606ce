//! The check of every response body, the same three ways the harness checks one.

use crate::config::BodyExpectation;
use serde_json::Value;

/// Rows of the world table (scenarios/src/data/world.js).
const WORLD_ROW_COUNT: i64 = 10_000;

/// Whether `body` is what the expectation asks for.
pub fn body_matches(expected: &BodyExpectation, body: &[u8]) -> bool {
    match expected {
        BodyExpectation::None => true,
        BodyExpectation::Exact { text } => body == text.as_bytes(),
        BodyExpectation::Json { canonical, json } => {
            body == canonical.as_bytes() || serde_json::from_slice::<Value>(body).is_ok_and(|parsed| json_equal(&parsed, json))
        }
        BodyExpectation::WorldRow => serde_json::from_slice::<Value>(body).is_ok_and(|parsed| is_world_row(&parsed)),
    }
}

/// Whether the body has to be read at all (a chunked body is only put together when it is checked).
pub fn needs_body(expected: &BodyExpectation) -> bool {
    !matches!(expected, BodyExpectation::None)
}

/// Deep equality as JavaScript sees parsed JSON: key order does not matter, numbers compare by value (1 == 1.0).
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equal(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, value)| y.get(key).is_some_and(|other| json_equal(value, other)))
        }
        _ => a == b,
    }
}

/// `{ id, randomNumber }` and nothing else, `id` a whole number of the table, `randomNumber` the value it holds.
fn is_world_row(value: &Value) -> bool {
    let Value::Object(fields) = value else { return false };
    if fields.len() != 2 {
        return false;
    }
    let whole = |name: &str| fields.get(name).and_then(Value::as_f64).filter(|number| number.fract() == 0.0).map(|number| number as i64);
    match (whole("id"), whole("randomNumber")) {
        (Some(id), Some(random_number)) => (1..=WORLD_ROW_COUNT).contains(&id) && random_number == (id * 7919) % WORLD_ROW_COUNT + 1,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> BodyExpectation {
        let value: Value = serde_json::from_str(text).unwrap();
        BodyExpectation::Json { canonical: value.to_string(), json: value }
    }

    #[test]
    fn exact_text_compares_every_byte() {
        let expected = BodyExpectation::Exact { text: "Hello, World!".into() };
        assert!(body_matches(&expected, b"Hello, World!"));
        assert!(!body_matches(&expected, b"Hello, World?"));
        assert!(!body_matches(&expected, b""));
    }

    #[test]
    fn json_ignores_key_order_and_spacing_but_not_values() {
        let expected = json(r#"{"message":"Hello, World!","n":1}"#);
        assert!(body_matches(&expected, br#"{"message":"Hello, World!","n":1}"#));
        assert!(body_matches(&expected, br#"{ "n": 1.0, "message": "Hello, World!" }"#));
        assert!(!body_matches(&expected, br#"{"message":"Hello, World!","n":2}"#));
        assert!(!body_matches(&expected, br#"{"message":"Hello, World!","n":1,"extra":true}"#));
        assert!(!body_matches(&expected, b"not json"));
    }

    #[test]
    fn world_rows_must_hold_the_tables_value() {
        let expected = BodyExpectation::WorldRow;
        assert!(body_matches(&expected, br#"{"id":1,"randomNumber":7920}"#));
        assert!(body_matches(&expected, br#"{"randomNumber":1,"id":10000}"#));
        assert!(!body_matches(&expected, br#"{"id":1,"randomNumber":7921}"#));
        assert!(!body_matches(&expected, br#"{"id":0,"randomNumber":1}"#));
        assert!(!body_matches(&expected, br#"{"id":1,"randomNumber":7920,"cached":true}"#));
        assert!(!body_matches(&expected, br#"[1,7920]"#));
    }
}
