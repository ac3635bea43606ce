//! WebSocket echo (RFC 6455) over HTTP/1.1, on a frame loop of our own: the handshake checked (101 and the
//! Sec-WebSocket-Accept of the key sent), then each connection keeps `streams` messages in flight, each echo
//! compared with the message sent and timed against its send, the next message sent as each echo arrives; at the
//! end of the phase every connection closes with code 1000.
//!
//! Why not tokio-tungstenite: it allocates a `Message` for every frame each way, validates UTF-8 of every text echo
//! that we only compare byte for byte, and puts a Sink/Stream pair between the socket and us; here a frame is built
//! into a buffer reused for the whole connection, a read's worth of echoes is compared where it lies and answered
//! with one write, so the engine pays a copy and a mask per message. A handshake refused or a wrong accept key is
//! also named as the run's failure rather than as a library's error.

use crate::config::{WebSocketConfig, MAX_MESSAGE_BYTES};
use crate::load::{
    connect, read_more, session_ended, ConnectionState, Ended, ThreadContext, READ_BUFFER,
};
use base64::Engine as _;
use ring::rand::SecureRandom;
use std::ops::Range;
use std::rc::Rc;
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

pub const OP_CONTINUATION: u8 = 0x0;
pub const OP_TEXT: u8 = 0x1;
pub const OP_BINARY: u8 = 0x2;
pub const OP_CLOSE: u8 = 0x8;
pub const OP_PING: u8 = 0x9;
pub const OP_PONG: u8 = 0xA;
/// The GUID every accept key is made with (RFC 6455 §1.3).
const ACCEPT_GUID: &[u8] = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
/// Close code 1000: normal closure.
const NORMAL_CLOSURE: u16 = 1000;
/// What a message is counted under: the status of the handshake every echo's connection was upgraded with.
pub const UPGRADED: u16 = 101;
/// Response heads with more headers than this are refused.
const MAX_HEADERS: usize = 64;

/// Where the WebSocket is opened and what every connection sends and expects back.
pub struct WsTarget {
    path: String,
    host: String,
    opcode: u8,
    payload: Vec<u8>,
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

/// The masking keys of one connection: a fresh one per frame, from a xorshift64* generator seeded by the operating
/// system (what RFC 6455 asks of a key is that a server or an intermediary cannot predict it from the ones before).
pub struct Masks(u64);

impl Masks {
    pub fn seeded() -> Self {
        let mut seed = [0u8; 8];
        let _ = ring::rand::SystemRandom::new().fill(&mut seed);
        Masks(u64::from_ne_bytes(seed) | 1)
    }

    pub fn next_key(&mut self) -> [u8; 4] {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        ((x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32).to_ne_bytes()
    }
}

/// The Sec-WebSocket-Accept a server must answer `key` with: base64 of the SHA-1 of the key and the GUID.
pub fn accept_key(key: &str) -> String {
    let mut context = ring::digest::Context::new(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY);
    context.update(key.as_bytes());
    context.update(ACCEPT_GUID);
    base64::engine::general_purpose::STANDARD.encode(context.finish())
}

/// XORs `bytes` with the masking key, 8 bytes at a time (masking and unmasking are the same).
pub fn apply_mask(bytes: &mut [u8], key: [u8; 4]) {
    let wide = u64::from_ne_bytes([
        key[0], key[1], key[2], key[3], key[0], key[1], key[2], key[3],
    ]);
    let mut chunks = bytes.chunks_exact_mut(8);
    for chunk in &mut chunks {
        let value = u64::from_ne_bytes(chunk.try_into().expect("8 bytes")) ^ wide;
        chunk.copy_from_slice(&value.to_ne_bytes());
    }
    // The remainder starts at a multiple of 8, so of 4: the key's bytes line up from its first.
    for (index, byte) in chunks.into_remainder().iter_mut().enumerate() {
        *byte ^= key[index % 4];
    }
}

/// Appends one whole (FIN) frame to `out`, masked with `key`, as a client sends every frame.
pub fn encode_frame(out: &mut Vec<u8>, opcode: u8, payload: &[u8], key: [u8; 4]) {
    out.push(0x80 | opcode);
    let length = payload.len();
    if length < 126 {
        out.push(0x80 | length as u8);
    } else if let Ok(short) = u16::try_from(length) {
        out.push(0x80 | 126);
        out.extend_from_slice(&short.to_be_bytes());
    } else {
        out.push(0x80 | 127);
        out.extend_from_slice(&(length as u64).to_be_bytes());
    }
    out.extend_from_slice(&key);
    let start = out.len();
    out.extend_from_slice(payload);
    apply_mask(&mut out[start..], key);
}

/// A frame found at the start of what was read.
#[derive(Debug, PartialEq)]
pub struct FrameHead {
    pub fin: bool,
    pub opcode: u8,
    /// The key, when the frame is masked (a server's never is).
    pub mask: Option<[u8; 4]>,
    /// Where its payload lies, from the frame's start.
    pub payload: Range<usize>,
    /// Bytes the whole frame takes.
    pub length: usize,
}

#[derive(Debug, PartialEq)]
pub enum Frame {
    Partial,
    Complete(FrameHead),
    /// Not a frame this connection can take: it cannot go on.
    Invalid(&'static str),
}

/// The next frame at the start of `bytes`.
pub fn parse_frame(bytes: &[u8]) -> Frame {
    let [first, second, ..] = *bytes else {
        return Frame::Partial;
    };
    if first & 0x70 != 0 {
        return Frame::Invalid("reserved bits set, and no extension was negotiated");
    }
    let (fin, opcode, masked) = (first & 0x80 != 0, first & 0x0F, second & 0x80 != 0);
    if !matches!(
        opcode,
        OP_CONTINUATION | OP_TEXT | OP_BINARY | OP_CLOSE | OP_PING | OP_PONG
    ) {
        return Frame::Invalid("an opcode RFC 6455 does not define");
    }
    let (length, mut at) = match second & 0x7F {
        126 => match bytes.get(2..4) {
            Some(short) => (u64::from(u16::from_be_bytes([short[0], short[1]])), 4),
            None => return Frame::Partial,
        },
        127 => match bytes.get(2..10) {
            Some(long) => (u64::from_be_bytes(long.try_into().expect("8 bytes")), 10),
            None => return Frame::Partial,
        },
        short => (u64::from(short), 2),
    };
    if opcode >= OP_CLOSE && (!fin || length > 125) {
        return Frame::Invalid("a control frame fragmented or longer than 125 bytes");
    }
    let Some(length) = usize::try_from(length)
        .ok()
        .filter(|&length| length <= MAX_MESSAGE_BYTES)
    else {
        return Frame::Invalid("a frame longer than the longest message");
    };
    let mask = if masked {
        let Some(key) = bytes.get(at..at + 4) else {
            return Frame::Partial;
        };
        at += 4;
        Some([key[0], key[1], key[2], key[3]])
    } else {
        None
    };
    if bytes.len() < at + length {
        return Frame::Partial;
    }
    Frame::Complete(FrameHead {
        fin,
        opcode,
        mask,
        payload: at..at + length,
        length: at + length,
    })
}

/// What a connection has read and not yet taken, and a message arriving in fragments.
struct Reader {
    buffer: Vec<u8>,
    filled: usize,
    message: Vec<u8>,
    fragmented: Option<u8>,
}

/// One WebSocket connection, opened again whenever it fails, until the phase ends (it then closes with code 1000),
/// the thread stops it, or the run cannot go on (a handshake refused).
pub async fn connection(context: Rc<ThreadContext>, state: Rc<ConnectionState>) {
    let mut reader = Reader {
        buffer: vec![0u8; READ_BUFFER],
        filled: 0,
        message: Vec::new(),
        fragmented: None,
    };
    let mut out = Vec::new();
    let mut masks = Masks::seeded();
    while !context.closing.get() {
        let Some(mut stream) = connect(&context).await else {
            continue;
        };
        reader.filled = 0;
        reader.fragmented = None;
        match upgrade(&context, &mut stream, &mut reader).await {
            Upgrade::Done => context.negotiated("websocket over http/1.1"),
            Upgrade::Lost => {
                context.stats.borrow_mut().error(1);
                continue;
            }
            Upgrade::Refused(reason) => {
                context.shared.fail(reason);
                return;
            }
        }
        let ended = echo(
            &context,
            &state,
            &mut stream,
            &mut reader,
            &mut out,
            &mut masks,
        )
        .await;
        session_ended(&context, &state, ended);
    }
}

enum Upgrade {
    Done,
    /// The connection ended before the server answered: counted as an error, connect again.
    Lost,
    /// The server answered, but not with the upgrade asked for: the run cannot go on.
    Refused(String),
}

/// The opening handshake: a GET with a fresh key; the answer must be 101 with the upgrade and the key's accept.
async fn upgrade<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    stream: &mut S,
    reader: &mut Reader,
) -> Upgrade {
    let Some(target) = context.target.websocket.as_ref() else {
        unreachable!("protocol ws has its websocket");
    };
    let mut nonce = [0u8; 16];
    let _ = ring::rand::SystemRandom::new().fill(&mut nonce);
    let key = base64::engine::general_purpose::STANDARD.encode(nonce);
    let request = format!(
        "GET {} HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n",
        target.path, target.host
    );
    if stream.write_all(request.as_bytes()).await.is_err() {
        return Upgrade::Lost;
    }
    loop {
        let Some(read) = read_more(stream, &mut reader.buffer, &mut reader.filled).await else {
            return Upgrade::Lost;
        };
        reader.filled += read;
        context.stats.borrow_mut().bytes += read as u64;
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut response = httparse::Response::new(&mut headers);
        let head = match response.parse(&reader.buffer[..reader.filled]) {
            Ok(httparse::Status::Complete(head)) => head,
            Ok(httparse::Status::Partial) => continue,
            Err(error) => {
                return Upgrade::Refused(format!(
                    "protocol ws: the server at {} answered the WebSocket handshake on {} with what is not HTTP ({error})",
                    context.target.address, target.path
                ))
            }
        };
        let refused = handshake_refusal(&response, &key).map(|why| {
            format!(
                "protocol ws: the server at {} {why} (the WebSocket handshake on {})",
                context.target.address, target.path
            )
        });
        if let Some(reason) = refused {
            return Upgrade::Refused(reason);
        }
        // Frames the server sent right after its answer stay for the echo loop.
        reader.buffer.copy_within(head..reader.filled, 0);
        reader.filled -= head;
        return Upgrade::Done;
    }
}

/// What is wrong with the server's answer to a handshake sent with `key`; None when it upgraded as RFC 6455 asks.
pub fn handshake_refusal(response: &httparse::Response, key: &str) -> Option<String> {
    let status = response.code.unwrap_or(0);
    if status != 101 {
        return Some(format!(
            "answered {status} {}, not 101 Switching Protocols",
            response.reason.unwrap_or("")
        ));
    }
    let header = |name: &str| {
        response
            .headers
            .iter()
            .find(|header| header.name.eq_ignore_ascii_case(name))
            .map(|header| String::from_utf8_lossy(header.value).trim().to_string())
    };
    if !header("upgrade").is_some_and(|value| value.eq_ignore_ascii_case("websocket")) {
        return Some(format!(
            "answered 101 with Upgrade `{}`, not `websocket`",
            header("upgrade").unwrap_or_default()
        ));
    }
    if !header("connection").is_some_and(|value| {
        value
            .split(',')
            .any(|token| token.trim().eq_ignore_ascii_case("upgrade"))
    }) {
        return Some(format!(
            "answered 101 with Connection `{}`, not `Upgrade`",
            header("connection").unwrap_or_default()
        ));
    }
    let expected = accept_key(key);
    match header("sec-websocket-accept") {
        Some(accept) if accept == expected => None,
        Some(accept) => Some(format!(
            "answered Sec-WebSocket-Accept `{accept}`, not `{expected}` (the accept of the key sent, `{key}`)"
        )),
        None => Some("answered 101 without Sec-WebSocket-Accept".into()),
    }
}

/// Keeps `streams` messages in flight until the phase ends (then closes with 1000) or the connection does.
async fn echo<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    state: &ConnectionState,
    stream: &mut S,
    reader: &mut Reader,
    out: &mut Vec<u8>,
    masks: &mut Masks,
) -> Ended {
    let Some(target) = context.target.websocket.as_ref() else {
        unreachable!("protocol ws has its websocket");
    };
    out.clear();
    let mut to_send = context.streams;
    let mut read = 0;
    loop {
        if context.closing.get() {
            close(stream, reader, out, masks).await;
            return Ended::Closed;
        }
        let now = Instant::now();
        let (completed, ended) = take_frames(context, state, reader, read, now, out, masks);
        // Each echo sends the next message, unless the connection ends here (then only a pong or a close goes out).
        if ended.is_none() {
            to_send += completed;
            for _ in 0..to_send {
                encode_frame(out, target.opcode, &target.payload, masks.next_key());
            }
            state
                .sent
                .borrow_mut()
                .extend(std::iter::repeat_n(now, to_send));
            to_send = 0;
        }
        if !out.is_empty() {
            let written = stream.write_all(out).await;
            out.clear();
            if written.is_err() {
                return Ended::Failed;
            }
        }
        if let Some(ended) = ended {
            return ended;
        }
        read = tokio::select! {
            read = read_more(stream, &mut reader.buffer, &mut reader.filled) => match read {
                Some(read) => read,
                None => return Ended::Failed,
            },
            _ = context.closing_signal.notified() => 0,
        };
    }
}

/// Takes every whole frame out of what was read: each echo compared with the message and timed against its send,
/// a ping answered (into `out`), the server's close answered. Returns how many echoes came, and why the connection
/// ends, if it does.
fn take_frames(
    context: &ThreadContext,
    state: &ConnectionState,
    reader: &mut Reader,
    read: usize,
    now: Instant,
    out: &mut Vec<u8>,
    masks: &mut Masks,
) -> (usize, Option<Ended>) {
    let Some(target) = context.target.websocket.as_ref() else {
        unreachable!("protocol ws has its websocket");
    };
    let Reader {
        buffer,
        filled,
        message,
        fragmented,
    } = reader;
    *filled += read;
    let mut stats = context.stats.borrow_mut();
    stats.bytes += read as u64;
    let mut sent = state.sent.borrow_mut();
    let (mut start, mut completed, mut ended) = (0, 0, None);
    while start < *filled {
        let frame = match parse_frame(&buffer[start..*filled]) {
            Frame::Partial => break,
            Frame::Invalid(_) => {
                ended = Some(Ended::Failed);
                break;
            }
            Frame::Complete(FrameHead { mask: Some(_), .. }) => {
                // A server must never mask (RFC 6455 §5.1).
                ended = Some(Ended::Failed);
                break;
            }
            Frame::Complete(frame) => frame,
        };
        let payload = &buffer[start + frame.payload.start..start + frame.payload.end];
        start += frame.length;
        let echoed: Option<(u8, &[u8])> = match (frame.opcode, *fragmented) {
            (OP_PING, _) => {
                encode_frame(out, OP_PONG, payload, masks.next_key());
                None
            }
            (OP_PONG, _) => None,
            (OP_CLOSE, _) => {
                // The server closes: answer with its code, and the connection ends.
                encode_frame(
                    out,
                    OP_CLOSE,
                    &payload[..payload.len().min(2)],
                    masks.next_key(),
                );
                ended = Some(if sent.is_empty() {
                    Ended::Closed
                } else {
                    Ended::Failed
                });
                break;
            }
            (OP_CONTINUATION, Some(opcode)) => {
                message.extend_from_slice(payload);
                if message.len() > MAX_MESSAGE_BYTES {
                    ended = Some(Ended::Failed);
                    break;
                }
                if frame.fin {
                    *fragmented = None;
                    Some((opcode, message.as_slice()))
                } else {
                    None
                }
            }
            (OP_CONTINUATION, None) | (_, Some(_)) => {
                // A continuation of nothing, or a new message before the last one ended.
                ended = Some(Ended::Failed);
                break;
            }
            (opcode, None) if frame.fin => Some((opcode, payload)),
            (opcode, None) => {
                message.clear();
                message.extend_from_slice(payload);
                *fragmented = Some(opcode);
                None
            }
        };
        if let Some((opcode, bytes)) = echoed {
            let Some(sent_at) = sent.pop_front() else {
                // An echo of a message nobody sent.
                ended = Some(Ended::Failed);
                break;
            };
            let matches = opcode == target.opcode && bytes == target.payload.as_slice();
            stats.response(sent_at, now, UPGRADED, matches);
            completed += 1;
        }
    }
    drop((stats, sent));
    context.count_responses(completed as u64);
    buffer.copy_within(start..*filled, 0);
    *filled -= start;
    (completed, ended)
}

/// The closing handshake at the end of the phase: a close frame with code 1000, then what the server still sends is
/// read (not counted) until its own close frame or the end of the connection; the thread bounds the wait.
async fn close<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut S,
    reader: &mut Reader,
    out: &mut Vec<u8>,
    masks: &mut Masks,
) {
    out.clear();
    encode_frame(
        out,
        OP_CLOSE,
        &NORMAL_CLOSURE.to_be_bytes(),
        masks.next_key(),
    );
    if stream.write_all(out).await.is_err() {
        return;
    }
    loop {
        let mut start = 0;
        while let Frame::Complete(frame) = parse_frame(&reader.buffer[start..reader.filled]) {
            if frame.opcode == OP_CLOSE {
                let _ = stream.shutdown().await;
                return;
            }
            start += frame.length;
        }
        reader.buffer.copy_within(start..reader.filled, 0);
        reader.filled -= start;
        match read_more(stream, &mut reader.buffer, &mut reader.filled).await {
            Some(read) => reader.filled += read,
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accept_key_is_the_one_of_rfc_6455() {
        // RFC 6455 §1.3's example.
        assert_eq!(
            accept_key("dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
        assert_ne!(
            accept_key("dGhlIHNhbXBsZSBub25jZR=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }

    #[test]
    fn a_masked_hello_is_the_frame_of_rfc_6455() {
        // RFC 6455 §5.7: a single-frame masked text message "Hello".
        let mut out = Vec::new();
        encode_frame(&mut out, OP_TEXT, b"Hello", [0x37, 0xfa, 0x21, 0x3d]);
        assert_eq!(
            out,
            [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        );
        let Frame::Complete(frame) = parse_frame(&out) else {
            panic!("a whole frame");
        };
        assert_eq!(
            (frame.fin, frame.opcode, frame.length),
            (true, OP_TEXT, out.len())
        );
        assert_eq!(frame.mask, Some([0x37, 0xfa, 0x21, 0x3d]));
        let mut payload = out[frame.payload].to_vec();
        apply_mask(&mut payload, [0x37, 0xfa, 0x21, 0x3d]);
        assert_eq!(payload, b"Hello");
    }

    #[test]
    fn masking_then_unmasking_gives_every_payload_back_at_every_length_and_the_three_length_forms()
    {
        let mut masks = Masks::seeded();
        for length in [0, 1, 3, 7, 8, 9, 125, 126, 127, 65_535, 65_536, 70_001] {
            let payload: Vec<u8> = (0..length).map(|n| (n * 31 % 251) as u8).collect();
            let key = masks.next_key();
            let mut out = Vec::new();
            encode_frame(&mut out, OP_BINARY, &payload, key);
            let header = match length {
                0..=125 => 2,
                126..=65_535 => 4,
                _ => 10,
            } + 4;
            assert_eq!(out.len(), header + length, "length {length}");
            if length >= 16 {
                assert_ne!(
                    &out[header..],
                    &payload[..],
                    "length {length}: the payload went out masked"
                );
            }
            let Frame::Complete(frame) = parse_frame(&out) else {
                panic!("length {length}: a whole frame");
            };
            assert_eq!(frame.payload, header..header + length);
            let mut back = out[frame.payload.clone()].to_vec();
            apply_mask(&mut back, frame.mask.expect("masked"));
            assert_eq!(back, payload, "length {length}");
            // Any prefix of the frame is Partial, never a frame or an error.
            for cut in [0, 1, header - 1, out.len() - 1] {
                if cut < out.len() && (length > 0 || cut < header) {
                    assert_eq!(
                        parse_frame(&out[..cut]),
                        Frame::Partial,
                        "length {length}, cut {cut}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_frame_gets_a_fresh_key() {
        let mut masks = Masks::seeded();
        let keys: std::collections::HashSet<[u8; 4]> =
            (0..10_000).map(|_| masks.next_key()).collect();
        assert!(keys.len() > 9_990, "{} distinct keys of 10,000", keys.len());
    }

    #[test]
    fn frames_a_client_cannot_take_are_refused() {
        // Reserved bits, an undefined opcode, a fragmented ping, a ping of 126 bytes.
        for bytes in [
            &[0xC1u8, 0x00][..],
            &[0x83, 0x00],
            &[0x09, 0x00],
            &[0x89, 126, 0x00, 126],
        ] {
            assert!(
                matches!(parse_frame(bytes), Frame::Invalid(_)),
                "{bytes:02x?}"
            );
        }
        // A server's unmasked text frame is read as it is.
        let Frame::Complete(frame) = parse_frame(b"\x81\x02hi") else {
            panic!("a whole frame");
        };
        assert_eq!((frame.mask, frame.payload), (None, 2..4));
    }

    fn answer(head: &str, key: &str) -> Option<String> {
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut response = httparse::Response::new(&mut headers);
        response.parse(head.as_bytes()).unwrap();
        handshake_refusal(&response, key)
    }

    #[test]
    fn the_handshake_is_taken_only_with_101_the_upgrade_and_the_keys_accept() {
        let key = "dGhlIHNhbXBsZSBub25jZQ==";
        let good =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                    Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";
        assert_eq!(answer(good, key), None);
        assert_eq!(
            answer(&good.replace("Upgrade\r\n", "keep-alive, upgrade\r\n"), key),
            None
        );
        let not_found = answer("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", key).unwrap();
        assert!(
            not_found.contains("answered 404 Not Found, not 101"),
            "{not_found}"
        );
        let wrong = answer(&good.replace("xOo=", "xOp="), key).unwrap();
        assert!(
            wrong.contains("Sec-WebSocket-Accept `s3pPLMBiTxaQ9kYGzzhZRbK+xOp=`, not `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`"),
            "{wrong}"
        );
        let missing = answer(
            &good.replace("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n", ""),
            key,
        )
        .unwrap();
        assert!(
            missing.contains("without Sec-WebSocket-Accept"),
            "{missing}"
        );
        let no_upgrade = answer(&good.replace("Upgrade: websocket", "Upgrade: h2c"), key).unwrap();
        assert!(no_upgrade.contains("Upgrade `h2c`"), "{no_upgrade}");
    }
}
