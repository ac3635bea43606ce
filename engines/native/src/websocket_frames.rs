//! WebSocket's frames and opening handshake as RFC 6455 has them, with no connection behind them: the masking keys,
//! masking, a client's frame written, a server's frame found in what was read, the accept key, and what is wrong with
//! a server's answer to the handshake.

use base64::Engine as _;
use ring::rand::SecureRandom;
use std::ops::Range;

pub const OP_CONTINUATION: u8 = 0x0;
pub const OP_TEXT: u8 = 0x1;
pub const OP_BINARY: u8 = 0x2;
pub const OP_CLOSE: u8 = 0x8;
pub const OP_PING: u8 = 0x9;
pub const OP_PONG: u8 = 0xA;
/// Handshake answers with more headers than this are refused.
pub const MAX_HEADERS: usize = 64;
/// The GUID every accept key is made with (RFC 6455 §1.3).
const ACCEPT_GUID: &[u8] = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

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

/// Why a frame is refused, as the report names it.
pub const FRAME_OVER_LIMIT: &str = "a WebSocket frame over bodyLimitBytes";

/// The next frame at the start of `bytes`; a frame whose payload is over `limit_bytes` is invalid.
pub fn parse_frame(bytes: &[u8], limit_bytes: usize) -> Frame {
    let [first, second, ..] = *bytes else {
        return Frame::Partial;
    };
    if first & 0x70 != 0 {
        return Frame::Invalid(
            "a WebSocket frame with reserved bits set, and no extension was negotiated",
        );
    }
    let (fin, opcode, masked) = (first & 0x80 != 0, first & 0x0F, second & 0x80 != 0);
    if !matches!(
        opcode,
        OP_CONTINUATION | OP_TEXT | OP_BINARY | OP_CLOSE | OP_PING | OP_PONG
    ) {
        return Frame::Invalid("a WebSocket frame of an opcode RFC 6455 does not define");
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
        return Frame::Invalid("a WebSocket control frame fragmented or longer than 125 bytes");
    }
    let Some(length) = usize::try_from(length)
        .ok()
        .filter(|&length| length <= limit_bytes)
    else {
        return Frame::Invalid(FRAME_OVER_LIMIT);
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
    // `at` is at most 14 and `length` at most the limit: the sum cannot overflow.
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The limit of these tests: 16 MiB, as a config without bodyLimitBytes has.
    const LIMIT: usize = crate::config::DEFAULT_BODY_LIMIT_BYTES;

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
        let Frame::Complete(frame) = parse_frame(&out, LIMIT) else {
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
            let Frame::Complete(frame) = parse_frame(&out, LIMIT) else {
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
                        parse_frame(&out[..cut], LIMIT),
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
                matches!(parse_frame(bytes, LIMIT), Frame::Invalid(_)),
                "{bytes:02x?}"
            );
        }
        // A server's unmasked text frame is read as it is.
        let Frame::Complete(frame) = parse_frame(b"\x81\x02hi", LIMIT) else {
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

    /// What a connection makes of `stream` arriving cut at `cuts`: each frame taken as soon as it is whole, as the echo loop
    /// takes them: (opcode, payload) each, and the reason it stopped, if invalid.
    fn take_all(
        stream: &[u8],
        cuts: &[usize],
        limit: usize,
    ) -> (Vec<(u8, Vec<u8>)>, Option<&'static str>) {
        let (mut arrived, mut start, mut taken) = (0, 0, Vec::new());
        let mut ends: Vec<usize> = cuts.iter().map(|&cut| cut.min(stream.len())).collect();
        ends.sort_unstable();
        ends.push(stream.len());
        for end in ends {
            arrived = arrived.max(end);
            loop {
                let bytes = &stream[start..arrived];
                match parse_frame(bytes, limit) {
                    Frame::Partial => break,
                    Frame::Invalid(reason) => return (taken, Some(reason)),
                    Frame::Complete(frame) => {
                        assert!(frame.length >= 2 && frame.length <= bytes.len());
                        assert!(frame.payload.end == frame.length && frame.payload.len() <= limit);
                        let mut payload = bytes[frame.payload].to_vec();
                        if let Some(key) = frame.mask {
                            apply_mask(&mut payload, key);
                        }
                        taken.push((frame.opcode, payload));
                        start += frame.length;
                    }
                }
            }
        }
        (taken, None)
    }

    #[test]
    fn a_frame_stating_a_length_no_buffer_can_hold_is_refused_naming_the_limit() {
        let mut huge = vec![0x82, 127];
        huge.extend_from_slice(&u64::MAX.to_be_bytes());
        assert_eq!(parse_frame(&huge, LIMIT), Frame::Invalid(FRAME_OVER_LIMIT));
        let over = [0x82, 126, 0x01, 0x00];
        assert_eq!(parse_frame(&over, 255), Frame::Invalid(FRAME_OVER_LIMIT));
        assert_eq!(parse_frame(&over, 256), Frame::Partial);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_bytes_in_arbitrary_pieces_never_panic_the_frame_parser(
            bytes in proptest::collection::vec(any::<u8>(), 0..300),
            cuts in proptest::collection::vec(0usize..300, 0..8),
            limit in 0usize..200,
        ) {
            let (taken, _) = take_all(&bytes, &cuts, limit);
            prop_assert!(taken.iter().all(|(_, payload)| payload.len() <= limit));
        }

        #[test]
        fn whole_frames_split_anywhere_parse_to_what_they_are_whole(
            frames in proptest::collection::vec(
                (prop_oneof![Just(OP_TEXT), Just(OP_BINARY), Just(OP_PING)], proptest::collection::vec(any::<u8>(), 0..300)),
                1..4,
            ),
            cuts in proptest::collection::vec(0usize..1000, 0..10),
        ) {
            let mut masks = Masks::seeded();
            let mut stream = Vec::new();
            let mut expected = Vec::new();
            for (opcode, mut payload) in frames {
                if opcode == OP_PING {
                    payload.truncate(125);
                }
                encode_frame(&mut stream, opcode, &payload, masks.next_key());
                expected.push((opcode, payload));
            }
            let whole = take_all(&stream, &[], LIMIT);
            prop_assert_eq!(&whole, &(expected, None));
            prop_assert_eq!(take_all(&stream, &cuts, LIMIT), whole);
        }
    }
}
