//! The check of every response body, the same three ways the harness checks one.

use crate::config::BodyExpectation;
use serde_json::Value;

/// Whether `body` is what the expectation asks for.
pub fn body_matches(expected: &BodyExpectation, body: &[u8]) -> bool {
    match expected {
        BodyExpectation::None => true,
        BodyExpectation::Exact { text } => body == text.as_bytes(),
        BodyExpectation::Json { canonical, json } => {
            body == canonical.as_bytes()
                || serde_json::from_slice::<Value>(body)
                    .is_ok_and(|parsed| json_equal(&parsed, json))
        }
        BodyExpectation::WorldRow {
            row_count: Some(row_count),
            multiplier: Some(multiplier),
        } => serde_json::from_slice::<Value>(body)
            .is_ok_and(|parsed| is_world_row(&parsed, *row_count, *multiplier)),
        // Refused by `Config::problem` before any request is sent.
        BodyExpectation::WorldRow { .. } => false,
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
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, value)| y.get(key).is_some_and(|other| json_equal(value, other)))
        }
        _ => a == b,
    }
}

/// `{ id, randomNumber }` and nothing else, `id` a whole number of the table (1 to `row_count`), `randomNumber`
/// the value it holds: `(id * multiplier) % row_count + 1`, computed in i128 so no rule can overflow it.
fn is_world_row(value: &Value, row_count: u64, multiplier: u64) -> bool {
    let Value::Object(fields) = value else {
        return false;
    };
    if fields.len() != 2 {
        return false;
    }
    let whole = |name: &str| {
        fields
            .get(name)
            .and_then(Value::as_f64)
            .filter(|number| number.fract() == 0.0)
            .map(|number| number as i64)
    };
    match (whole("id"), whole("randomNumber")) {
        (Some(id), Some(random_number)) => {
            let id = i128::from(id);
            (1..=i128::from(row_count)).contains(&id)
                && i128::from(random_number)
                    == id * i128::from(multiplier) % i128::from(row_count) + 1
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> BodyExpectation {
        let value: Value = serde_json::from_str(text).unwrap();
        BodyExpectation::Json {
            canonical: value.to_string(),
            json: value,
        }
    }

    #[test]
    fn exact_text_compares_every_byte() {
        let expected = BodyExpectation::Exact {
            text: "Hello, World!".into(),
        };
        assert!(body_matches(&expected, b"Hello, World!"));
        assert!(!body_matches(&expected, b"Hello, World?"));
        assert!(!body_matches(&expected, b""));
    }

    #[test]
    fn json_ignores_key_order_and_spacing_but_not_values() {
        let expected = json(r#"{"message":"Hello, World!","n":1}"#);
        assert!(body_matches(
            &expected,
            br#"{"message":"Hello, World!","n":1}"#
        ));
        assert!(body_matches(
            &expected,
            br#"{ "n": 1.0, "message": "Hello, World!" }"#
        ));
        assert!(!body_matches(
            &expected,
            br#"{"message":"Hello, World!","n":2}"#
        ));
        assert!(!body_matches(
            &expected,
            br#"{"message":"Hello, World!","n":1,"extra":true}"#
        ));
        assert!(!body_matches(&expected, b"not json"));
    }

    fn world_row(row_count: u64, multiplier: u64) -> BodyExpectation {
        BodyExpectation::WorldRow {
            row_count: Some(row_count),
            multiplier: Some(multiplier),
        }
    }

    #[test]
    fn world_rows_must_hold_the_tables_value() {
        let expected = world_row(10_000, 7919);
        assert!(body_matches(&expected, br#"{"id":1,"randomNumber":7920}"#));
        assert!(body_matches(&expected, br#"{"randomNumber":1,"id":10000}"#));
        assert!(!body_matches(&expected, br#"{"id":1,"randomNumber":7921}"#));
        assert!(!body_matches(&expected, br#"{"id":0,"randomNumber":1}"#));
        assert!(!body_matches(
            &expected,
            br#"{"id":1,"randomNumber":7920,"cached":true}"#
        ));
        assert!(!body_matches(&expected, br#"[1,7920]"#));
        assert!(!body_matches(
            &expected,
            br#"{"id":10001,"randomNumber":7920}"#
        ));
        assert!(!body_matches(
            &expected,
            br#"{"id":1.5,"randomNumber":7920}"#
        ));
        assert!(body_matches(
            &expected,
            br#"{"id":1.0,"randomNumber":7920.0}"#
        ));
    }

    #[test]
    fn world_rows_follow_the_rule_of_the_config_not_a_built_in_one() {
        // rowCount 100, multiplier 7: id 20 holds 20 * 7 % 100 + 1 = 41, and ids stop at 100.
        let expected = world_row(100, 7);
        assert!(body_matches(&expected, br#"{"id":20,"randomNumber":41}"#));
        assert!(body_matches(&expected, br#"{"id":100,"randomNumber":1}"#));
        assert!(!body_matches(&expected, br#"{"id":101,"randomNumber":8}"#));
        // What the table of 10,000 rows with 7919 holds for id 1 is not a row of this table.
        assert!(!body_matches(&expected, br#"{"id":1,"randomNumber":7920}"#));
        assert!(body_matches(&expected, br#"{"id":1,"randomNumber":8}"#));
    }

    #[test]
    fn world_rows_of_a_large_rule_do_not_overflow() {
        // (id * multiplier) overflows u64 here; the check must still compute it exactly.
        let expected = world_row(1 << 40, u64::MAX);
        let id: u64 = 1 << 39;
        let value = (u128::from(id) * u128::from(u64::MAX) % (1u128 << 40) + 1) as u64;
        let body = format!(r#"{{"id":{id},"randomNumber":{value}}}"#);
        assert!(body_matches(&expected, body.as_bytes()));
        let wrong = format!(r#"{{"id":{id},"randomNumber":{}}}"#, value + 1);
        assert!(!body_matches(&expected, wrong.as_bytes()));
    }

    #[test]
    fn a_world_row_expectation_without_its_rule_matches_nothing() {
        // Config::problem refuses such a config; should one get through, no body passes.
        let expected = BodyExpectation::WorldRow {
            row_count: None,
            multiplier: Some(7919),
        };
        assert!(!body_matches(&expected, br#"{"id":1,"randomNumber":7920}"#));
    }
}
