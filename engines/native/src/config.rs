//! What dyno asks for, read once as JSON from standard input and checked here.

use serde::Deserialize;
use std::net::SocketAddr;
use std::time::Duration;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Config {
    /// The SUT's address: loopback only, as dyno never loads anything else.
    pub address: SocketAddr,
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
    Json { canonical: String, json: serde_json::Value },
    /// A row of the world table: `{ id, randomNumber }` with `randomNumber` the value the table holds for `id`.
    WorldRow,
}

impl Config {
    /// The first thing that makes the config unusable, named with its field.
    pub fn problem(&self) -> Option<String> {
        if !self.address.ip().is_loopback() {
            return Some(format!("address must be a loopback address, got {}", self.address));
        }
        if self.connections == 0 || self.pipelining == 0 || self.threads == 0 {
            return Some("connections, pipelining and threads must be at least 1".into());
        }
        if self.threads > self.connections {
            return Some(format!("threads ({}) must not exceed connections ({})", self.threads, self.connections));
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
