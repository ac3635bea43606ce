//! What dyno asks for, read once as JSON from standard input and checked here.

use serde::Deserialize;
use std::net::SocketAddr;
use std::time::Duration;

/// How far ahead a synchronised start may be: enough for every host's SSH session to deliver its config.
const MAX_START_DELAY_MS: u64 = 30_000;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Config {
    /// The SUT's address: loopback, unless the user put the SUT on a host of its own (`remote_host`).
    pub address: SocketAddr,
    /// The SUT runs on a host the user named (`dyno run --sut-host`): its address need not be loopback.
    #[serde(default)]
    pub remote_host: bool,
    /// Load from several hosts at once: the first phase starts at this moment (ms since the Unix epoch), on every host alike.
    #[serde(default)]
    pub start_at_unix_ms: Option<u64>,
    /// Each window also carries its µs histogram, so that the windows of engines on several hosts add up exactly.
    #[serde(default)]
    pub window_histograms: bool,
    /// The whole HTTP/1.1 request, written by the harness (method, path, Host, headers, body).
    pub request: String,
    pub connections: usize,
    pub pipelining: usize,
    /// One OS thread each, each with its share of the connections (and of the rate).
    pub threads: usize,
    pub phases: Vec<PhaseConfig>,
    pub window_ms: u64,
    pub timeout_ms: u64,
    /// Open model: requests per second on a fixed schedule; absent: closed loop.
    pub rate_per_sec: Option<f64>,
    /// How each response body is checked (statuses are counted as they come; the harness judges them).
    pub expect_body: BodyExpectation,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PhaseConfig {
    pub name: String,
    pub duration_ms: u64,
}

/// How a response body is checked, as the contract says.
#[derive(Deserialize, Clone)]
#[serde(tag = "mode", rename_all = "camelCase", deny_unknown_fields)]
pub enum BodyExpectation {
    /// No body check (the scenario fixes none).
    None,
    /// The exact text.
    Exact { text: String },
    /// JSON equal to `json`; `canonical` is its JSON.stringify text, compared first, so only a miss is parsed.
    Json {
        canonical: String,
        json: serde_json::Value,
    },
    /// A row of the world table: `{ id, randomNumber }` with `id` in 1..=`row_count` and `randomNumber` the value
    /// the table holds for it, `(id * multiplier) % row_count + 1` (the rule the harness sends with the mode).
    /// Both are required (at least 1): deserialized as options so that `Config::problem` names a missing one.
    #[serde(rename_all = "camelCase")]
    WorldRow {
        row_count: Option<u64>,
        multiplier: Option<u64>,
    },
}

impl Config {
    /// The first thing that makes the config unusable, named with its field.
    pub fn problem(&self) -> Option<String> {
        if !self.address.ip().is_loopback() && !self.remote_host {
            return Some(format!(
                "address must be a loopback address unless remoteHost is set, got {}",
                self.address
            ));
        }
        if let Some(at) = self.start_at_unix_ms {
            let now_ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|since| since.as_millis() as u64)
                .unwrap_or(0);
            if at > now_ms + MAX_START_DELAY_MS {
                return Some(format!(
                    "startAtUnixMs is {} ms away; at most {MAX_START_DELAY_MS} ms is allowed",
                    at - now_ms
                ));
            }
        }
        if self.connections == 0 || self.pipelining == 0 || self.threads == 0 {
            return Some("connections, pipelining and threads must be at least 1".into());
        }
        if self.threads > self.connections {
            return Some(format!(
                "threads ({}) must not exceed connections ({})",
                self.threads, self.connections
            ));
        }
        if self.window_ms == 0 || self.timeout_ms == 0 {
            return Some("windowMs and timeoutMs must be at least 1".into());
        }
        if self.phases.is_empty() || self.phases.iter().any(|phase| phase.duration_ms == 0) {
            return Some("phases must name at least one phase, each lasting at least 1 ms".into());
        }
        if let Some(rate) = self.rate_per_sec {
            if !(rate > 0.0 && rate.is_finite()) {
                return Some(format!("ratePerSec must be a number above 0, got {rate}"));
            }
        }
        if let BodyExpectation::WorldRow {
            row_count,
            multiplier,
        } = &self.expect_body
        {
            for (name, value) in [("rowCount", row_count), ("multiplier", multiplier)] {
                match value {
                    None => {
                        return Some(format!(
                            "expectBody.{name} is required for mode worldRow (the world table's rule: \
                             randomNumber = (id * multiplier) % rowCount + 1, ids 1 to rowCount)"
                        ))
                    }
                    Some(0) => {
                        return Some(format!(
                            "expectBody.{name} must be a whole number of at least 1 for mode worldRow, got 0"
                        ))
                    }
                    Some(_) => {}
                }
            }
        }
        None
    }

    pub fn window(&self) -> Duration {
        Duration::from_millis(self.window_ms)
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    /// The connections of thread `index`: the connections shared as evenly as they go.
    pub fn connections_of(&self, index: usize) -> usize {
        self.connections / self.threads + usize::from(index < self.connections % self.threads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A config that is valid but for what `expect_body` (JSON) makes of it.
    fn parse(expect_body: &str) -> Result<Config, serde_json::Error> {
        serde_json::from_str(&format!(
            r#"{{"address":"127.0.0.1:3000","request":"GET / HTTP/1.1\r\nHost: x\r\n\r\n","connections":2,
                "pipelining":1,"threads":1,"phases":[{{"name":"measure","durationMs":1000}}],"windowMs":1000,
                "timeoutMs":2000,"expectBody":{expect_body}}}"#
        ))
    }

    fn problem(expect_body: &str) -> Option<String> {
        parse(expect_body).expect("a config serde reads").problem()
    }

    #[test]
    fn world_row_reads_its_rule_from_the_config() {
        let config = parse(r#"{"mode":"worldRow","rowCount":10000,"multiplier":7919}"#).unwrap();
        assert_eq!(config.problem(), None);
        assert!(matches!(
            config.expect_body,
            BodyExpectation::WorldRow {
                row_count: Some(10_000),
                multiplier: Some(7919)
            }
        ));
    }

    #[test]
    fn world_row_without_its_rule_is_refused_naming_what_is_missing() {
        let missing_both = problem(r#"{"mode":"worldRow"}"#).expect("refused");
        assert!(
            missing_both.contains("expectBody.rowCount is required for mode worldRow"),
            "{missing_both}"
        );
        let missing_multiplier =
            problem(r#"{"mode":"worldRow","rowCount":10000}"#).expect("refused");
        assert!(
            missing_multiplier.contains("expectBody.multiplier is required"),
            "{missing_multiplier}"
        );
        let missing_row_count =
            problem(r#"{"mode":"worldRow","multiplier":7919}"#).expect("refused");
        assert!(
            missing_row_count.contains("expectBody.rowCount is required"),
            "{missing_row_count}"
        );
    }

    #[test]
    fn world_row_with_a_zero_in_its_rule_is_refused() {
        let zero_rows =
            problem(r#"{"mode":"worldRow","rowCount":0,"multiplier":7919}"#).expect("refused");
        assert!(
            zero_rows.contains("expectBody.rowCount must be a whole number of at least 1"),
            "{zero_rows}"
        );
        let zero_multiplier =
            problem(r#"{"mode":"worldRow","rowCount":10000,"multiplier":0}"#).expect("refused");
        assert!(
            zero_multiplier.contains("expectBody.multiplier must be a whole number of at least 1"),
            "{zero_multiplier}"
        );
    }

    #[test]
    fn world_row_with_a_rule_that_is_not_a_positive_integer_or_an_unknown_field_is_not_read() {
        // These fail in serde (main reports them as "the config is not valid: …" too), named with the value.
        for (body, says) in [
            (
                r#"{"mode":"worldRow","rowCount":-1,"multiplier":7919}"#,
                "integer `-1`, expected u64",
            ),
            (
                r#"{"mode":"worldRow","rowCount":10000,"multiplier":79.19}"#,
                "floating point `79.19`, expected u64",
            ),
            (
                r#"{"mode":"worldRow","rowCount":"10000","multiplier":7919}"#,
                "string \"10000\", expected u64",
            ),
            (
                r#"{"mode":"worldRow","rowCount":10000,"multiplier":7919,"rows":1}"#,
                "unknown field `rows`",
            ),
        ] {
            let error = parse(body)
                .err()
                .unwrap_or_else(|| panic!("{body} was read"))
                .to_string();
            assert!(error.contains(says), "{body}: {error}");
        }
    }

    #[test]
    fn the_other_body_modes_need_no_rule() {
        assert_eq!(problem(r#"{"mode":"none"}"#), None);
        assert_eq!(problem(r#"{"mode":"exact","text":"Hello, World!"}"#), None);
    }
}
