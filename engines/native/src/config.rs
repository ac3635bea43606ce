//! What dyno asks for, read once as JSON from standard input and checked here.

use serde::Deserialize;
use std::net::SocketAddr;
use std::time::Duration;

/// How far ahead a synchronised start may be: enough for every host's SSH session to deliver its config.
const MAX_START_DELAY_MS: u64 = 30_000;
/// The most streams (h2) or messages (ws) one connection may keep in flight.
pub const MAX_STREAMS: usize = 10_000;
/// The largest response body (or WebSocket message) taken when the config names no `bodyLimitBytes`.
pub const DEFAULT_BODY_LIMIT_BYTES: usize = 16 * 1024 * 1024;
/// The largest `bodyLimitBytes` a config may ask for: every connection may hold a body this long in memory.
pub const MAX_BODY_LIMIT_BYTES: usize = 1024 * 1024 * 1024;
/// The longest response head (status line and headers, or a WebSocket handshake's answer) taken, in bytes.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// The longest `handshakeTimeoutMs` a config may ask for.
const MAX_HANDSHAKE_TIMEOUT_MS: u64 = 600_000;
/// The most requests a config may give to send in turn.
pub const MAX_REQUESTS_IN_TURN: usize = 65_536;

/// The open model's rates a config may ask for (per second, the whole run's): below, one request would wait days; above,
/// the schedule's interval would be below a nanosecond.
const MIN_RATE_PER_SEC: f64 = 0.000_001;
const MAX_RATE_PER_SEC: f64 = 100_000_000.0;
/// HTTP/2 forbids these (RFC 9113 §8.2.2); `host` is the `:authority` pseudo-header there.
const CONNECTION_HEADERS: [&str; 6] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "upgrade",
    "host",
];

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
    /// What the connections speak; absent: HTTP/1.1 in cleartext, as every config before protocols were known.
    #[serde(default)]
    pub protocol: Protocol,
    /// http1 and tls: the whole HTTP/1.1 request, written by the harness (method, path, Host, headers, body).
    #[serde(default)]
    pub request: Option<String>,
    /// http1 and tls, instead of `request`: whole requests that each connection sends in turn, from its own share of them
    /// on (a service's drawn requests).
    #[serde(default)]
    pub requests_in_turn: Option<Vec<String>>,
    /// h2 and h2c: the same request in parts, as HTTP/2 sends it.
    #[serde(default)]
    pub http: Option<HttpRequest>,
    /// ws: where the WebSocket is opened and the message each connection keeps sending.
    #[serde(default)]
    pub websocket: Option<WebSocketConfig>,
    /// tls and h2: the certificate to trust and the name to verify it for.
    #[serde(default)]
    pub tls: Option<TlsConfig>,
    pub connections: usize,
    pub pipelining: usize,
    /// h2 and h2c: concurrent streams per connection; ws: messages in flight per connection. Absent: 1.
    #[serde(default)]
    pub streams: Option<usize>,
    /// One OS thread each, each with its share of the connections (and of the rate).
    pub threads: usize,
    pub phases: Vec<PhaseConfig>,
    pub window_ms: u64,
    pub timeout_ms: u64,
    /// The deadline of each connection's way up: TCP connect, the TLS handshake, HTTP/2's SETTINGS, the WebSocket upgrade.
    /// Absent: `timeoutMs`.
    #[serde(default)]
    pub handshake_timeout_ms: Option<u64>,
    /// The longest response body (or WebSocket message) taken; a longer one is an invalid response. Absent: 16 MiB.
    #[serde(default)]
    pub body_limit_bytes: Option<usize>,
    /// Open model: requests per second on a fixed schedule; absent: closed loop.
    pub rate_per_sec: Option<f64>,
    /// How each response body is checked (statuses are counted as they come; the harness judges them).
    pub expect_body: BodyExpectation,
}

/// What the connections speak. Read from its name; an unknown name is refused naming the field and the names known.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug, Default)]
#[serde(try_from = "String")]
pub enum Protocol {
    /// HTTP/1.1 in cleartext, pipelined.
    #[default]
    Http1,
    /// HTTP/1.1 over TLS 1.3.
    Tls,
    /// HTTP/2 over TLS 1.3, ALPN `h2`.
    H2,
    /// HTTP/2 in cleartext with prior knowledge.
    H2c,
    /// WebSocket echo (RFC 6455) over HTTP/1.1 in cleartext.
    Ws,
}

impl Protocol {
    pub const NAMES: &'static str = "http1, tls, h2, h2c, ws";

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Http1 => "http1",
            Protocol::Tls => "tls",
            Protocol::H2 => "h2",
            Protocol::H2c => "h2c",
            Protocol::Ws => "ws",
        }
    }

    pub fn uses_tls(self) -> bool {
        matches!(self, Protocol::Tls | Protocol::H2)
    }

    pub fn is_http2(self) -> bool {
        matches!(self, Protocol::H2 | Protocol::H2c)
    }

    /// Whether `streams` means anything to it (HTTP/1.1 keeps `pipelining` requests in flight instead).
    pub fn has_streams(self) -> bool {
        matches!(self, Protocol::H2 | Protocol::H2c | Protocol::Ws)
    }
}

impl TryFrom<String> for Protocol {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        match name.as_str() {
            "http1" => Ok(Protocol::Http1),
            "tls" => Ok(Protocol::Tls),
            "h2" => Ok(Protocol::H2),
            "h2c" => Ok(Protocol::H2c),
            "ws" => Ok(Protocol::Ws),
            _ => Err(format!(
                "protocol must be one of {}, got `{name}`",
                Protocol::NAMES
            )),
        }
    }
}

/// The request of h2 and h2c, in the parts HTTP/2 sends: the pseudo-headers, the other headers, the body.
#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HttpRequest {
    pub method: String,
    pub path: String,
    pub authority: String,
    /// `[name, value]` pairs, in order; names in lower case, none of the headers HTTP/2 forbids.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    #[serde(default)]
    pub body: Option<String>,
}

/// tls and h2: what the engine trusts. Both fields are required; read as options so that `problem` names a missing one.
#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TlsConfig {
    /// A PEM file: the certificate dyno made for the run, or the CA that signed it.
    pub ca_file: Option<String>,
    /// The name the server's certificate must be valid for: a DNS name or an IP address.
    pub server_name: Option<String>,
}

/// ws: the WebSocket's request target and Host, and the message every connection sends and expects back.
#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebSocketConfig {
    pub path: String,
    pub host: String,
    pub message: WebSocketMessage,
}

/// One of the two: a text message, or a binary one given in base64.
#[derive(Deserialize, Clone)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebSocketMessage {
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub binary_base64: Option<String>,
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
        if let Some(problem) = self.rate_problem().or_else(|| self.limits_problem()) {
            return Some(problem);
        }
        if let Some(problem) = self.protocol_problem() {
            return Some(problem);
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

    /// What makes the open model's rate unusable: not a number, out of range, or an interval per thread that a Duration cannot hold.
    fn rate_problem(&self) -> Option<String> {
        let rate = self.rate_per_sec?;
        if !(MIN_RATE_PER_SEC..=MAX_RATE_PER_SEC).contains(&rate) {
            return Some(format!(
                "ratePerSec must be a finite number of requests per second from {MIN_RATE_PER_SEC} to {MAX_RATE_PER_SEC}, got {rate}"
            ));
        }
        match self.schedule_interval() {
            Some(interval) if !interval.is_zero() => None,
            _ => Some(format!(
                "ratePerSec {rate} shared by {} threads gives each thread an interval between requests that cannot be kept",
                self.threads
            )),
        }
    }

    /// What is wrong with the deadline of the handshakes or the body limit.
    fn limits_problem(&self) -> Option<String> {
        if let Some(ms) = self.handshake_timeout_ms {
            if !(1..=MAX_HANDSHAKE_TIMEOUT_MS).contains(&ms) {
                return Some(format!(
                    "handshakeTimeoutMs must be a whole number from 1 to {MAX_HANDSHAKE_TIMEOUT_MS}, got {ms}"
                ));
            }
        }
        if let Some(bytes) = self.body_limit_bytes {
            if !(1..=MAX_BODY_LIMIT_BYTES).contains(&bytes) {
                return Some(format!(
                    "bodyLimitBytes must be a whole number from 1 to {MAX_BODY_LIMIT_BYTES}, got {bytes}"
                ));
            }
        }
        None
    }

    /// What the protocol needs that the config lacks or gets wrong, named with its field.
    fn protocol_problem(&self) -> Option<String> {
        let protocol = self.protocol;
        let name = protocol.name();
        if let Some(streams) = self.streams {
            if !protocol.has_streams() {
                return Some(format!(
                    "streams applies to protocols h2, h2c and ws; protocol {name} keeps pipelining requests in flight instead"
                ));
            }
            if !(1..=MAX_STREAMS).contains(&streams) {
                return Some(format!(
                    "streams must be a whole number from 1 to {MAX_STREAMS}, got {streams}"
                ));
            }
        }
        if protocol.has_streams() && self.pipelining != 1 {
            return Some(format!(
                "pipelining must be 1 for protocol {name} (streams sets what each connection keeps in flight), got {}",
                self.pipelining
            ));
        }
        if protocol.uses_tls() {
            let Some(tls) = &self.tls else {
                return Some(format!(
                    "tls is required for protocol {name}: {{ caFile, serverName }}, the certificate to trust and the name it must be valid for"
                ));
            };
            if tls.ca_file.as_deref().is_none_or(str::is_empty) {
                return Some(format!(
                    "tls.caFile is required for protocol {name}: the PEM of the certificate (or CA) made for the run"
                ));
            }
            match tls.server_name.as_deref() {
                None | Some("") => {
                    return Some(format!(
                        "tls.serverName is required for protocol {name}: the DNS name or IP address the certificate is valid for"
                    ))
                }
                Some(server_name) => {
                    if rustls::pki_types::ServerName::try_from(server_name).is_err() {
                        return Some(format!(
                            "tls.serverName must be a DNS name or an IP address, got `{server_name}`"
                        ));
                    }
                }
            }
        } else if self.tls.is_some() {
            return Some(format!(
                "tls applies to protocols tls and h2 only, not to protocol {name}"
            ));
        }
        let needs_request = matches!(protocol, Protocol::Http1 | Protocol::Tls);
        if let Some(requests) = &self.requests_in_turn {
            if !needs_request {
                return Some(format!(
                    "requestsInTurn applies to protocols http1 and tls only, not to protocol {name}"
                ));
            }
            if self.request.is_some() {
                return Some("give request or requestsInTurn, not both".to_string());
            }
            if requests.is_empty() || requests.len() > MAX_REQUESTS_IN_TURN {
                return Some(format!(
                    "requestsInTurn must hold 1 to {MAX_REQUESTS_IN_TURN} requests, got {}",
                    requests.len()
                ));
            }
        }
        match (&self.request, needs_request) {
            (None, true) if self.requests_in_turn.is_some() => {}
            (None, true) => {
                return Some(format!(
                    "request is required for protocol {name}: the whole HTTP/1.1 request"
                ))
            }
            (Some(_), false) => {
                return Some(format!(
                    "request (HTTP/1.1 bytes) does not apply to protocol {name}; {}",
                    if protocol.is_http2() {
                        "give http instead"
                    } else {
                        "give websocket instead"
                    }
                ))
            }
            _ => {}
        }
        match (&self.http, protocol.is_http2()) {
            (None, true) => {
                return Some(format!(
                    "http is required for protocol {name}: {{ method, path, authority, headers, body }}"
                ))
            }
            (Some(_), false) => {
                return Some(format!(
                    "http applies to protocols h2 and h2c only, not to protocol {name}"
                ))
            }
            (Some(http), true) => {
                if let Some(problem) = http_problem(http) {
                    return Some(problem);
                }
            }
            (None, false) => {}
        }
        match (&self.websocket, protocol == Protocol::Ws) {
            (None, true) => {
                return Some(
                    "websocket is required for protocol ws: { path, host, message: { text } or { binaryBase64 } }"
                        .into(),
                )
            }
            (Some(_), false) => {
                return Some(format!(
                    "websocket applies to protocol ws only, not to protocol {name}"
                ))
            }
            (Some(websocket), true) => {
                if let Some(problem) = websocket_problem(websocket, self.body_limit_bytes()) {
                    return Some(problem);
                }
                if self.rate_per_sec.is_some() {
                    return Some(
                        "ratePerSec (the open model) is not supported for protocol ws: each connection keeps streams messages \
                         in flight in a closed loop"
                            .into(),
                    );
                }
                if !matches!(self.expect_body, BodyExpectation::None) {
                    return Some(
                        "expectBody must be { \"mode\": \"none\" } for protocol ws: every echo is checked against websocket.message"
                            .into(),
                    );
                }
            }
            (None, false) => {}
        }
        None
    }

    /// Streams (h2, h2c) or messages (ws) in flight per connection; 1 for the protocols without streams.
    pub fn streams(&self) -> usize {
        self.streams.unwrap_or(1)
    }

    pub fn window(&self) -> Duration {
        Duration::from_millis(self.window_ms)
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }

    pub fn handshake_timeout(&self) -> Duration {
        Duration::from_millis(self.handshake_timeout_ms.unwrap_or(self.timeout_ms))
    }

    pub fn body_limit_bytes(&self) -> usize {
        self.body_limit_bytes.unwrap_or(DEFAULT_BODY_LIMIT_BYTES)
    }

    /// Open model: the interval between one thread's requests (each thread sends its share of the rate); None in the closed
    /// loop, or when no Duration holds it (a config whose `problem` passed always has one).
    pub fn schedule_interval(&self) -> Option<Duration> {
        let rate = self.rate_per_sec?;
        Duration::try_from_secs_f64(self.threads as f64 / rate).ok()
    }

    /// The connections of thread `index`: the connections shared as evenly as they go.
    pub fn connections_of(&self, index: usize) -> usize {
        self.connections / self.threads + usize::from(index < self.connections % self.threads)
    }
}

/// What in the HTTP/2 request cannot be sent as given.
fn http_problem(http: &HttpRequest) -> Option<String> {
    if http::Method::from_bytes(http.method.as_bytes()).is_err() {
        return Some(format!(
            "http.method must be an HTTP method token, got `{}`",
            http.method
        ));
    }
    if !http.path.starts_with('/') || http.path.parse::<http::uri::PathAndQuery>().is_err() {
        return Some(format!(
            "http.path must be a path starting with /, got `{}`",
            http.path
        ));
    }
    if http.authority.parse::<http::uri::Authority>().is_err() {
        return Some(format!(
            "http.authority must be host:port, got `{}`",
            http.authority
        ));
    }
    for (name, value) in &http.headers {
        if CONNECTION_HEADERS.contains(&name.as_str()) || (name == "te" && value != "trailers") {
            return Some(format!(
                "http.headers must not hold `{name}`: HTTP/2 forbids it (the authority goes in http.authority)"
            ));
        }
        if name.bytes().any(|byte| byte.is_ascii_uppercase())
            || http::HeaderName::from_bytes(name.as_bytes()).is_err()
        {
            return Some(format!(
                "http.headers: `{name}` must be a header name in lower case, as HTTP/2 sends it"
            ));
        }
        if http::HeaderValue::from_str(value).is_err() {
            return Some(format!(
                "http.headers: the value of `{name}` cannot be sent as given"
            ));
        }
    }
    None
}

/// What in the WebSocket config cannot be used.
fn websocket_problem(websocket: &WebSocketConfig, body_limit_bytes: usize) -> Option<String> {
    if !websocket.path.starts_with('/') || websocket.path.bytes().any(|byte| byte <= b' ') {
        return Some(format!(
            "websocket.path must be a path starting with /, got `{}`",
            websocket.path
        ));
    }
    if websocket.host.is_empty() || websocket.host.bytes().any(|byte| byte <= b' ') {
        return Some(format!(
            "websocket.host must be the Host of the handshake (host:port), got `{}`",
            websocket.host
        ));
    }
    let length = match (&websocket.message.text, &websocket.message.binary_base64) {
        (Some(text), None) => text.len(),
        (None, Some(encoded)) => {
            match base64::Engine::decode(&base64::engine::general_purpose::STANDARD, encoded) {
                Ok(bytes) => bytes.len(),
                Err(error) => {
                    return Some(format!(
                        "websocket.message.binaryBase64 is not base64: {error}"
                    ))
                }
            }
        }
        _ => {
            return Some("websocket.message must hold exactly one of text and binaryBase64".into())
        }
    };
    if length > body_limit_bytes {
        return Some(format!(
            "websocket.message must be at most bodyLimitBytes ({body_limit_bytes} bytes), got {length}"
        ));
    }
    None
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

    /// A valid HTTP/1.1 config with `fields` (a JSON object) put over it; a field set to null is taken out.
    fn with(fields: &str) -> Result<Config, serde_json::Error> {
        let mut config: serde_json::Value = serde_json::from_str(
            r#"{"address":"127.0.0.1:3000","request":"GET / HTTP/1.1\r\nHost: x\r\n\r\n","connections":2,
                "pipelining":1,"threads":1,"phases":[{"name":"measure","durationMs":1000}],"windowMs":1000,
                "timeoutMs":2000,"expectBody":{"mode":"none"}}"#,
        )?;
        let fields: serde_json::Map<String, serde_json::Value> = serde_json::from_str(fields)?;
        for (name, value) in fields {
            if value.is_null() {
                config.as_object_mut().unwrap().remove(&name);
            } else {
                config[name] = value;
            }
        }
        serde_json::from_value(config)
    }

    fn problem_with(fields: &str) -> Option<String> {
        with(fields).expect("a config serde reads").problem()
    }

    const TLS: &str = r#""tls":{"caFile":"/tmp/cert.pem","serverName":"localhost"}"#;
    const HTTP: &str = r#""request":null,"http":{"method":"GET","path":"/json","authority":"127.0.0.1:3000",
        "headers":[["accept","application/json"]]}"#;
    const WEBSOCKET: &str = r#""request":null,"websocket":{"path":"/ws","host":"127.0.0.1:3000","message":{"text":"hi"}}"#;

    #[test]
    fn a_config_without_a_protocol_is_http1_as_before_and_each_protocol_has_a_valid_config() {
        let config = with("{}").unwrap();
        assert_eq!((config.protocol, config.streams()), (Protocol::Http1, 1));
        assert_eq!(config.problem(), None);
        for fields in [
            format!(r#"{{"protocol":"tls",{TLS}}}"#),
            format!(r#"{{"protocol":"h2",{TLS},{HTTP},"streams":100}}"#),
            format!(r#"{{"protocol":"h2c",{HTTP}}}"#),
            format!(r#"{{"protocol":"ws",{WEBSOCKET},"streams":4}}"#),
            r#"{"protocol":"ws","request":null,"websocket":{"path":"/ws","host":"h:1","message":{"binaryBase64":"AAEC"}}}"#
                .to_string(),
        ] {
            assert_eq!(problem_with(&fields), None, "{fields}");
        }
    }

    #[test]
    fn an_unknown_protocol_is_refused_naming_the_field_and_the_known_ones() {
        let error = with(r#"{"protocol":"h3"}"#)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            error.contains("protocol must be one of http1, tls, h2, h2c, ws, got `h3`"),
            "{error}"
        );
    }

    #[test]
    fn streams_are_refused_outside_1_to_10000_and_for_the_protocols_that_pipeline() {
        for streams in [0, 10_001, 100_000] {
            let problem = problem_with(&format!(
                r#"{{"protocol":"h2c",{HTTP},"streams":{streams}}}"#
            ))
            .unwrap();
            assert!(
                problem.contains(&format!(
                    "streams must be a whole number from 1 to 10000, got {streams}"
                )),
                "{problem}"
            );
        }
        assert_eq!(
            problem_with(&format!(r#"{{"protocol":"h2c",{HTTP},"streams":10000}}"#)),
            None
        );
        let http1 = problem_with(r#"{"streams":4}"#).unwrap();
        assert!(
            http1.contains(
                "streams applies to protocols h2, h2c and ws; protocol http1 keeps pipelining"
            ),
            "{http1}"
        );
        let pipelined =
            problem_with(&format!(r#"{{"protocol":"h2c",{HTTP},"pipelining":4}}"#)).unwrap();
        assert!(
            pipelined.contains("pipelining must be 1 for protocol h2c"),
            "{pipelined}"
        );
    }

    #[test]
    fn tls_and_h2_need_the_certificate_and_the_name_and_no_other_protocol_takes_them() {
        for (fields, says) in [
            (
                r#"{"protocol":"tls"}"#.to_string(),
                "tls is required for protocol tls",
            ),
            (
                format!(r#"{{"protocol":"h2",{HTTP}}}"#),
                "tls is required for protocol h2",
            ),
            (
                r#"{"protocol":"h2","tls":{"serverName":"localhost"}}"#.to_string(),
                "tls.caFile is required for protocol h2",
            ),
            (
                r#"{"protocol":"tls","tls":{"caFile":"/tmp/cert.pem"}}"#.to_string(),
                "tls.serverName is required for protocol tls",
            ),
            (
                r#"{"protocol":"tls","tls":{"caFile":"/tmp/cert.pem","serverName":"not a name"}}"#
                    .to_string(),
                "tls.serverName must be a DNS name or an IP address, got `not a name`",
            ),
            (
                format!(r#"{{{TLS}}}"#),
                "tls applies to protocols tls and h2 only, not to protocol http1",
            ),
            (
                format!(r#"{{"protocol":"h2c",{HTTP},{TLS}}}"#),
                "tls applies to protocols tls and h2 only",
            ),
        ] {
            let problem = problem_with(&fields).unwrap_or_else(|| panic!("{fields} passed"));
            assert!(problem.contains(says), "{fields}: {problem}");
        }
    }

    #[test]
    fn requests_in_turn_replace_the_one_request_of_http1_and_tls_only() {
        let two = r#""request":null,"requestsInTurn":["GET /a HTTP/1.1\r\n\r\n","GET /b HTTP/1.1\r\n\r\n"]"#;
        assert_eq!(problem_with(&format!("{{{two}}}")), None);
        assert_eq!(
            problem_with(&format!(r#"{{"protocol":"tls",{TLS},{two}}}"#)),
            None
        );
        for (fields, says) in [
            (
                r#"{"requestsInTurn":["GET / HTTP/1.1\r\n\r\n"]}"#.to_string(),
                "give request or requestsInTurn, not both",
            ),
            (
                r#"{"request":null,"requestsInTurn":[]}"#.to_string(),
                "requestsInTurn must hold 1 to 65536 requests, got 0",
            ),
            (
                format!(r#"{{"protocol":"h2c",{HTTP},"requestsInTurn":["x"]}}"#),
                "requestsInTurn applies to protocols http1 and tls only, not to protocol h2c",
            ),
        ] {
            let problem = problem_with(&fields).unwrap_or_else(|| panic!("{fields} passed"));
            assert!(problem.contains(says), "{fields}: {problem}");
        }
    }

    #[test]
    fn http2_needs_its_request_in_parts_without_the_headers_http2_forbids() {
        for (fields, says) in [
            (r#"{"protocol":"h2c","request":null}"#.to_string(), "http is required for protocol h2c"),
            (
                format!(r#"{{"protocol":"h2c",{HTTP},"request":"GET / HTTP/1.1\r\n\r\n"}}"#),
                "request (HTTP/1.1 bytes) does not apply to protocol h2c; give http instead",
            ),
            (format!(r#"{{{HTTP},"request":"x"}}"#), "http applies to protocols h2 and h2c only"),
            (
                r#"{"protocol":"h2c","request":null,"http":{"method":"GET","path":"/","authority":"a:1","headers":[["connection","close"]]}}"#
                    .to_string(),
                "http.headers must not hold `connection`: HTTP/2 forbids it",
            ),
            (
                r#"{"protocol":"h2c","request":null,"http":{"method":"GET","path":"/","authority":"a:1","headers":[["host","a"]]}}"#
                    .to_string(),
                "http.headers must not hold `host`",
            ),
            (
                r#"{"protocol":"h2c","request":null,"http":{"method":"GET","path":"/","authority":"a:1","headers":[["Accept","*/*"]]}}"#
                    .to_string(),
                "`Accept` must be a header name in lower case",
            ),
            (
                r#"{"protocol":"h2c","request":null,"http":{"method":"GET","path":"json","authority":"a:1"}}"#.to_string(),
                "http.path must be a path starting with /, got `json`",
            ),
            (
                r#"{"protocol":"h2c","request":null,"http":{"method":"G T","path":"/","authority":"a:1"}}"#.to_string(),
                "http.method must be an HTTP method token",
            ),
        ] {
            let problem = problem_with(&fields).unwrap_or_else(|| panic!("{fields} passed"));
            assert!(problem.contains(says), "{fields}: {problem}");
        }
    }

    #[test]
    fn ws_needs_its_websocket_one_message_no_rate_and_no_body_check_of_its_own() {
        for (fields, says) in [
            (r#"{"protocol":"ws","request":null}"#.to_string(), "websocket is required for protocol ws"),
            (format!(r#"{{{WEBSOCKET},"request":"x"}}"#), "websocket applies to protocol ws only"),
            (
                format!(r#"{{"protocol":"ws",{WEBSOCKET},"ratePerSec":1000}}"#),
                "ratePerSec (the open model) is not supported for protocol ws",
            ),
            (
                format!(r#"{{"protocol":"ws",{WEBSOCKET},"expectBody":{{"mode":"exact","text":"hi"}}}}"#),
                "expectBody must be { \"mode\": \"none\" } for protocol ws",
            ),
            (
                r#"{"protocol":"ws","request":null,"websocket":{"path":"/ws","host":"h:1","message":{}}}"#.to_string(),
                "websocket.message must hold exactly one of text and binaryBase64",
            ),
            (
                r#"{"protocol":"ws","request":null,"websocket":{"path":"/ws","host":"h:1","message":{"text":"a","binaryBase64":"AA=="}}}"#
                    .to_string(),
                "exactly one of text and binaryBase64",
            ),
            (
                r#"{"protocol":"ws","request":null,"websocket":{"path":"/ws","host":"h:1","message":{"binaryBase64":"not base64!"}}}"#
                    .to_string(),
                "websocket.message.binaryBase64 is not base64",
            ),
            (
                r#"{"protocol":"ws","request":null,"websocket":{"path":"ws","host":"h:1","message":{"text":"a"}}}"#.to_string(),
                "websocket.path must be a path starting with /",
            ),
        ] {
            let problem = problem_with(&fields).unwrap_or_else(|| panic!("{fields} passed"));
            assert!(problem.contains(says), "{fields}: {problem}");
        }
    }

    #[test]
    fn a_rate_that_no_schedule_can_keep_is_refused_with_a_message_not_a_panic() {
        for rate in ["0", "-1", "1e-20", "1e300", "0.0000001"] {
            let problem = problem_with(&format!(r#"{{"ratePerSec":{rate}}}"#))
                .unwrap_or_else(|| panic!("ratePerSec {rate} passed"));
            assert!(
                problem.contains("ratePerSec must be a finite number of requests per second from"),
                "{problem}"
            );
        }
        let slow = with(r#"{"ratePerSec":0.001}"#).unwrap();
        assert_eq!(slow.problem(), None);
        assert_eq!(slow.schedule_interval(), Some(Duration::from_secs(1000)));
        assert_eq!(with("{}").unwrap().schedule_interval(), None);
    }

    #[test]
    fn the_body_limit_and_the_handshake_deadline_default_and_are_refused_out_of_range() {
        let config = with("{}").unwrap();
        assert_eq!(config.body_limit_bytes(), DEFAULT_BODY_LIMIT_BYTES);
        assert_eq!(config.handshake_timeout(), config.timeout());
        let set = with(r#"{"bodyLimitBytes":1024,"handshakeTimeoutMs":500}"#).unwrap();
        assert_eq!(set.problem(), None);
        assert_eq!(
            (set.body_limit_bytes(), set.handshake_timeout()),
            (1024, Duration::from_millis(500))
        );
        for (fields, says) in [
            (
                r#"{"bodyLimitBytes":0}"#,
                "bodyLimitBytes must be a whole number from 1 to",
            ),
            (r#"{"bodyLimitBytes":1073741825}"#, "bodyLimitBytes must be"),
            (
                r#"{"handshakeTimeoutMs":0}"#,
                "handshakeTimeoutMs must be a whole number from 1",
            ),
        ] {
            let problem = problem_with(fields).unwrap_or_else(|| panic!("{fields} passed"));
            assert!(problem.contains(says), "{problem}");
        }
        let long_message = format!(r#"{{"protocol":"ws",{WEBSOCKET},"bodyLimitBytes":1}}"#);
        let problem = problem_with(&long_message).expect("a message over the limit");
        assert!(
            problem.contains("at most bodyLimitBytes (1 bytes), got 2"),
            "{problem}"
        );
    }
}
