//! What every WebSocket connection of a run sends and where: the message (text or binary) and the path and host of
//! the opening handshake, resolved once from the config.

use crate::config::WebSocketConfig;
use crate::websocket_frames::{OP_BINARY, OP_TEXT};
use base64::Engine as _;

/// Where the WebSocket is opened and what every connection sends and expects back.
pub struct WsTarget {
    pub path: String,
    pub host: String,
    pub opcode: u8,
    pub payload: Vec<u8>,
}

impl WsTarget {
    pub fn new(websocket: &WebSocketConfig) -> Result<Self, String> {
        let (opcode, payload) = match (&websocket.message.text, &websocket.message.binary_base64) {
            (Some(text), None) => (OP_TEXT, text.as_bytes().to_vec()),
            (None, Some(encoded)) => (
                OP_BINARY,
                base64::engine::general_purpose::STANDARD
                    .decode(encoded)
                    .map_err(|error| format!("websocket.message.binaryBase64: {error}"))?,
            ),
            _ => {
                return Err(
                    "websocket.message must hold exactly one of text and binaryBase64".into(),
                )
            }
        };
        Ok(WsTarget {
            path: websocket.path.clone(),
            host: websocket.host.clone(),
            opcode,
            payload,
        })
    }
}
