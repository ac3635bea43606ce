//! What the connections of a run send and where, resolved once from the config: the address, and what each protocol
//! needs of its target (the TLS client, HTTP/1.1's request bytes, HTTP/2's request, WebSocket's message).

use crate::config::{Config, Protocol};
use crate::http2_request::H2Request;
use crate::tls::TlsTarget;
use crate::websocket_target::WsTarget;
use std::net::SocketAddr;

/// What the connections of every thread and phase send, resolved once from the config.
pub struct Target {
    pub protocol: Protocol,
    pub address: SocketAddr,
    /// tls and h2: the TLS 1.3 client, the name to verify, what to offer by ALPN.
    pub tls: Option<TlsTarget>,
    /// http1 and tls: the bytes of each request, sent in turn (one: the same request every time).
    pub requests: Vec<Vec<u8>>,
    /// h2 and h2c.
    pub http2: Option<H2Request>,
    /// ws.
    pub websocket: Option<WsTarget>,
}

impl Target {
    /// The config made ready to send (a config `Config::problem` passed); what still fails (a certificate file that
    /// cannot be read) is named.
    pub fn new(config: &Config) -> Result<Target, String> {
        Ok(Target {
            protocol: config.protocol,
            address: config.address,
            tls: TlsTarget::new(config)?,
            requests: match (&config.requests_in_turn, &config.request) {
                (Some(requests), _) => requests
                    .iter()
                    .map(|request| request.as_bytes().to_vec())
                    .collect(),
                (None, request) => vec![request.as_deref().unwrap_or("").as_bytes().to_vec()],
            },
            http2: config
                .http
                .as_ref()
                .map(|http| H2Request::new(http, config.protocol))
                .transpose()?,
            websocket: config.websocket.as_ref().map(WsTarget::new).transpose()?,
        })
    }
}
