//! Finds the next complete HTTP/1.1 response in what a connection has read: the head through httparse,
//! the body by Content-Length or chunked (chunk sizes through httparse too). Every length the server states is checked
//! before it is added to anything: a head over MAX_HEAD_BYTES, a body over the body limit, chunk framing over
//! MAX_CHUNK_FRAMING_BYTES are invalid responses, so that what a connection keeps of a response is bounded.

use crate::config::MAX_HEAD_BYTES;
use std::ops::Range;

/// Response heads with more headers than this are refused (a SUT of the contract sends a handful).
const MAX_HEADERS: usize = 64;
/// The most bytes a chunked body may spend on its size lines, their line ends and its trailers.
pub const MAX_CHUNK_FRAMING_BYTES: usize = 1024 * 1024;

/// Why a response is invalid, as the report counts it.
pub const NOT_HTTP: &str = "not an HTTP/1.1 response";
pub const TOO_MANY_HEADERS: &str = "a head with more than 64 headers";
pub const HEAD_TOO_LONG: &str = "a head over 64 KiB";
pub const BAD_CONTENT_LENGTH: &str = "a Content-Length that is not a whole number";
pub const CONTENT_LENGTHS_DIFFER: &str = "two Content-Lengths that differ";
pub const CONTENT_LENGTH_OVER_LIMIT: &str = "a Content-Length over bodyLimitBytes";
pub const NO_LENGTH: &str = "a body with neither Content-Length nor chunked encoding";
pub const BAD_CHUNK_SIZE: &str = "a chunk size line that is not hexadecimal";
pub const CHUNK_OVER_LIMIT: &str = "a chunk size over bodyLimitBytes";
pub const CHUNKS_OVER_LIMIT: &str = "chunks adding up to more than bodyLimitBytes";
pub const CHUNK_WITHOUT_CRLF: &str = "a chunk not ended by CRLF";
pub const FRAMING_TOO_LONG: &str = "chunk size lines and trailers over 1 MiB";

#[derive(Debug, PartialEq)]
pub enum Parsed {
    /// Not all of the next response has arrived yet.
    Partial,
    Complete(Response),
    /// Not a response the connection can take (one of the reasons above): it cannot go on.
    Invalid(&'static str),
}

#[derive(Debug, PartialEq)]
pub struct Response {
    /// Bytes of the buffer the response took, head and body.
    pub length: usize,
    pub status: u16,
    /// Where the body is: one range (Content-Length) or one per chunk.
    pub body: Body,
    /// The server closes the connection after this response.
    pub closes: bool,
}

#[derive(Debug, PartialEq)]
pub enum Body {
    Whole(Range<usize>),
    Chunks(Vec<Range<usize>>),
}

impl Body {
    /// The body as one slice: borrowed when it is one range, put together in `scratch` when chunked.
    pub fn bytes<'a>(&self, buffer: &'a [u8], scratch: &'a mut Vec<u8>) -> &'a [u8] {
        match self {
            Body::Whole(range) => &buffer[range.clone()],
            Body::Chunks(ranges) => {
                scratch.clear();
                for range in ranges {
                    scratch.extend_from_slice(&buffer[range.clone()]);
                }
                scratch
            }
        }
    }
}

/// What the head says of the response.
struct Head {
    length: usize,
    status: u16,
    content_length: Option<u64>,
    chunked: bool,
    closes: bool,
}

/// The next response at the start of `buffer`; a body over `body_limit_bytes` is invalid.
pub fn parse(buffer: &[u8], keep_chunks: bool, body_limit_bytes: usize) -> Parsed {
    let head = match parse_head(buffer) {
        Ok(Some(head)) => head,
        Ok(None) => return Parsed::Partial,
        Err(reason) => return Parsed::Invalid(reason),
    };
    let Head {
        length: head_length,
        status,
        closes,
        ..
    } = head;
    // 1xx, 204 and 304 have no body, whatever the head says.
    if (100..200).contains(&status) || status == 204 || status == 304 {
        return Parsed::Complete(Response {
            length: head_length,
            status,
            body: Body::Whole(head_length..head_length),
            closes,
        });
    }
    if head.chunked {
        return match parse_chunks(buffer, head_length, keep_chunks, body_limit_bytes) {
            Ok(Some((length, chunks))) => Parsed::Complete(Response {
                length,
                status,
                body: Body::Chunks(chunks),
                closes,
            }),
            Ok(None) => Parsed::Partial,
            Err(reason) => Parsed::Invalid(reason),
        };
    }
    // Neither length nor chunks: the body runs until the server closes, which a keep-alive benchmark cannot use.
    let Some(stated) = head.content_length else {
        return Parsed::Invalid(NO_LENGTH);
    };
    let Some(body_length) = usize::try_from(stated)
        .ok()
        .filter(|&length| length <= body_limit_bytes)
    else {
        return Parsed::Invalid(CONTENT_LENGTH_OVER_LIMIT);
    };
    match head_length.checked_add(body_length) {
        Some(end) if buffer.len() >= end => Parsed::Complete(Response {
            length: end,
            status,
            body: Body::Whole(head_length..end),
            closes,
        }),
        Some(_) => Parsed::Partial,
        None => Parsed::Invalid(CONTENT_LENGTH_OVER_LIMIT),
    }
}

/// The head at the start of `buffer`: Ok(None) while it is incomplete and within MAX_HEAD_BYTES.
fn parse_head(buffer: &[u8]) -> Result<Option<Head>, &'static str> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let length = match response.parse(buffer) {
        Ok(httparse::Status::Complete(length)) if length <= MAX_HEAD_BYTES => length,
        Ok(httparse::Status::Partial) if buffer.len() <= MAX_HEAD_BYTES => return Ok(None),
        Ok(_) => return Err(HEAD_TOO_LONG),
        Err(httparse::Error::TooManyHeaders) => return Err(TOO_MANY_HEADERS),
        Err(_) => return Err(NOT_HTTP),
    };
    let mut head = Head {
        length,
        status: response.code.unwrap_or(0),
        content_length: None,
        chunked: false,
        closes: response.version == Some(0),
    };
    for header in response.headers.iter() {
        if header.name.eq_ignore_ascii_case("content-length") {
            let stated = content_length(header.value).ok_or(BAD_CONTENT_LENGTH)?;
            if head.content_length.is_some_and(|before| before != stated) {
                return Err(CONTENT_LENGTHS_DIFFER);
            }
            head.content_length = Some(stated);
        } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
            head.chunked = contains_token(header.value, b"chunked");
        } else if header.name.eq_ignore_ascii_case("connection") {
            if contains_token(header.value, b"close") {
                head.closes = true;
            } else if contains_token(header.value, b"keep-alive") {
                head.closes = false;
            }
        }
    }
    Ok(Some(head))
}

/// A Content-Length's value: digits only (no sign, no spaces within), and one that fits in 64 bits.
fn content_length(value: &[u8]) -> Option<u64> {
    let digits = value.trim_ascii();
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// A whole chunked body: where the response ends, and the chunks' ranges (when kept).
type Chunked = (usize, Vec<Range<usize>>);

/// A chunked body from `head_length` on: Ok(None) while it is incomplete and within its limits.
fn parse_chunks(
    buffer: &[u8],
    head_length: usize,
    keep_chunks: bool,
    body_limit_bytes: usize,
) -> Result<Option<Chunked>, &'static str> {
    let mut position = head_length;
    let mut chunks = Vec::new();
    let (mut body_bytes, mut framing_bytes) = (0usize, 0usize);
    loop {
        let rest = &buffer[position..];
        let (size_length, size) = match httparse::parse_chunk_size(rest) {
            Ok(httparse::Status::Complete(found)) => found,
            Ok(httparse::Status::Partial) => {
                return add_framing(framing_bytes, rest.len()).map(|_| None)
            }
            Err(_) => return Err(BAD_CHUNK_SIZE),
        };
        // The size line, and the CRLF after the chunk's data.
        framing_bytes = add_framing(framing_bytes, size_length + 2)?;
        position += size_length;
        if size == 0 {
            return trailers(buffer, position, framing_bytes)
                .map(|end| end.map(|length| (length, chunks)));
        }
        let size = usize::try_from(size)
            .ok()
            .filter(|&size| size <= body_limit_bytes)
            .ok_or(CHUNK_OVER_LIMIT)?;
        body_bytes = body_bytes
            .checked_add(size)
            .filter(|&total| total <= body_limit_bytes)
            .ok_or(CHUNKS_OVER_LIMIT)?;
        // position ≤ buffer.len() and size ≤ the body limit: neither sum can overflow.
        let data_end = position + size;
        if buffer.len() < data_end + 2 {
            return Ok(None);
        }
        if &buffer[data_end..data_end + 2] != b"\r\n" {
            return Err(CHUNK_WITHOUT_CRLF);
        }
        if keep_chunks {
            chunks.push(position..data_end);
        }
        position = data_end + 2;
    }
}

/// `framing_bytes` and `more`, when within MAX_CHUNK_FRAMING_BYTES.
fn add_framing(framing_bytes: usize, more: usize) -> Result<usize, &'static str> {
    framing_bytes
        .checked_add(more)
        .filter(|&total| total <= MAX_CHUNK_FRAMING_BYTES)
        .ok_or(FRAMING_TOO_LONG)
}

/// The trailer fields after the last chunk, if any, then the empty line: Ok(Some(where the response ends)).
fn trailers(
    buffer: &[u8],
    mut position: usize,
    mut framing_bytes: usize,
) -> Result<Option<usize>, &'static str> {
    loop {
        let rest = &buffer[position..];
        let Some(end) = find_crlf(rest) else {
            return add_framing(framing_bytes, rest.len()).map(|_| None);
        };
        framing_bytes = add_framing(framing_bytes, end + 2)?;
        position += end + 2;
        if end == 0 {
            return Ok(Some(position));
        }
    }
}

fn find_crlf(bytes: &[u8]) -> Option<usize> {
    bytes.windows(2).position(|pair| pair == b"\r\n")
}

fn contains_token(value: &[u8], token: &[u8]) -> bool {
    value
        .split(|&byte| byte == b',')
        .any(|part| part.trim_ascii().eq_ignore_ascii_case(token))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The body limit of these tests: 16 MiB, as a config without bodyLimitBytes has.
    const LIMIT: usize = crate::config::DEFAULT_BODY_LIMIT_BYTES;

    fn complete(bytes: &[u8]) -> Response {
        match parse(bytes, true, LIMIT) {
            Parsed::Complete(response) => response,
            _ => panic!("not a complete response"),
        }
    }

    #[test]
    fn reads_a_body_by_content_length_and_leaves_the_next_response() {
        let bytes = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 404 Not Found\r\n";
        let response = complete(bytes);
        assert_eq!(response.status, 200);
        assert_eq!(response.body.bytes(bytes, &mut Vec::new()), b"hello");
        assert!(matches!(
            parse(&bytes[response.length..], true, LIMIT),
            Parsed::Partial
        ));
        assert!(matches!(parse(&bytes[..30], true, LIMIT), Parsed::Partial));
    }

    #[test]
    fn puts_a_chunked_body_together_and_skips_trailers() {
        let bytes = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n";
        let response = complete(bytes);
        assert_eq!(response.length, bytes.len());
        assert_eq!(response.body.bytes(bytes, &mut Vec::new()), b"hello world");
        assert!(matches!(
            parse(&bytes[..bytes.len() - 1], true, LIMIT),
            Parsed::Partial
        ));
    }

    #[test]
    fn sees_a_closing_server_and_refuses_what_is_not_http() {
        assert!(
            complete(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").closes
        );
        assert!(complete(b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").closes);
        assert!(!complete(b"HTTP/1.1 204 No Content\r\n\r\n").closes);
        assert!(matches!(
            parse(b"SSH-2.0-OpenSSH\r\n\r\n", true, LIMIT),
            Parsed::Invalid(NOT_HTTP)
        ));
        assert_eq!(
            parse(b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", true, LIMIT),
            Parsed::Invalid(BAD_CONTENT_LENGTH)
        );
    }

    #[test]
    fn back_to_back_responses_are_found_one_by_one_in_any_prefix_of_what_arrived() {
        let responses: [&[u8]; 4] = [
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n",
            b"HTTP/1.1 204 No Content\r\n\r\n",
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\nnope!",
        ];
        let bodies: [&[u8]; 4] = [b"hello", b"hello", b"", b"nope!"];
        let all = responses.concat();
        // Whatever part of the stream has arrived, the responses wholly in it are found, each with its own
        // length, status and body, and what follows is Partial: never Invalid, never a response too many.
        for arrived in 0..=all.len() {
            let buffer = &all[..arrived];
            let mut start = 0;
            let mut found = 0;
            loop {
                match parse(&buffer[start..], true, LIMIT) {
                    Parsed::Complete(response) => {
                        assert_eq!(response.length, responses[found].len());
                        assert_eq!(response.status, [200, 200, 204, 404][found]);
                        assert_eq!(
                            response.body.bytes(&buffer[start..], &mut Vec::new()),
                            bodies[found]
                        );
                        assert!(!response.closes);
                        start += response.length;
                        found += 1;
                    }
                    Parsed::Partial => break,
                    Parsed::Invalid(reason) => {
                        panic!("{arrived} bytes: Invalid ({reason}) after {found} responses")
                    }
                }
            }
            let whole = responses.iter().scan(0, |end, response| {
                *end += response.len();
                Some(*end)
            });
            assert_eq!(
                found,
                whole.filter(|&end| end <= arrived).count(),
                "{arrived} bytes"
            );
        }
    }

    /// A response whose head states `headers` and whose body is `body`.
    fn lying(headers: &str, body: &[u8]) -> Vec<u8> {
        [
            format!("HTTP/1.1 200 OK\r\n{headers}\r\n\r\n").as_bytes(),
            body,
        ]
        .concat()
    }

    #[test]
    fn lengths_no_buffer_can_hold_are_invalid_with_their_reason_not_a_panic() {
        let cases: [(Vec<u8>, &str); 9] = [
            (
                lying("Content-Length: 18446744073709551615", b""),
                CONTENT_LENGTH_OVER_LIMIT,
            ),
            (
                lying("Content-Length: 99999999999999999999999", b""),
                BAD_CONTENT_LENGTH,
            ),
            (
                lying("Content-Length: 16777217", b"x"),
                CONTENT_LENGTH_OVER_LIMIT,
            ),
            (lying("Content-Length: +5", b"hello"), BAD_CONTENT_LENGTH),
            (
                lying("Content-Length: 5\r\nContent-Length: 6", b"hello"),
                CONTENT_LENGTHS_DIFFER,
            ),
            (
                lying("Transfer-Encoding: chunked", b"fffffffffffffffe\r\nx"),
                CHUNK_OVER_LIMIT,
            ),
            (
                lying("Transfer-Encoding: chunked", b"fffffffffffffffff\r\n"),
                BAD_CHUNK_SIZE,
            ),
            (
                lying("Transfer-Encoding: chunked", b"3\r\nabcXY"),
                CHUNK_WITHOUT_CRLF,
            ),
            (lying("X-Nothing: 1", b"hello"), NO_LENGTH),
        ];
        for (bytes, reason) in cases {
            assert_eq!(
                parse(&bytes, true, LIMIT),
                Parsed::Invalid(reason),
                "{}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }

    #[test]
    fn chunks_adding_up_past_the_limit_are_refused_as_soon_as_the_size_that_passes_it_arrives() {
        let mut body = b"8\r\n12345678\r\n".repeat(2);
        body.extend_from_slice(b"1\r\n");
        let bytes = lying("Transfer-Encoding: chunked", &body);
        assert_eq!(parse(&bytes, true, 16), Parsed::Invalid(CHUNKS_OVER_LIMIT));
        assert!(matches!(parse(&bytes, true, 17), Parsed::Partial));
    }

    #[test]
    fn a_head_or_a_chunked_framing_past_its_bound_is_refused_before_it_ends() {
        let long_header = format!("X-Long: {}", "a".repeat(MAX_HEAD_BYTES));
        let unfinished = lying(&long_header, b"");
        let unfinished = &unfinished[..MAX_HEAD_BYTES + 1];
        assert_eq!(
            parse(unfinished, true, LIMIT),
            Parsed::Invalid(HEAD_TOO_LONG)
        );
        assert_eq!(
            parse(&unfinished[..MAX_HEAD_BYTES], true, LIMIT),
            Parsed::Partial
        );
        let whole = lying(&format!("{long_header}\r\nContent-Length: 0"), b"");
        assert_eq!(parse(&whole, true, LIMIT), Parsed::Invalid(HEAD_TOO_LONG));

        let extension = format!("1;{}", "e".repeat(MAX_CHUNK_FRAMING_BYTES));
        let bytes = lying("Transfer-Encoding: chunked", extension.as_bytes());
        assert_eq!(
            parse(&bytes, true, LIMIT),
            Parsed::Invalid(FRAMING_TOO_LONG)
        );
        let trailers = format!("0\r\nX-T: {}", "t".repeat(MAX_CHUNK_FRAMING_BYTES));
        let bytes = lying("Transfer-Encoding: chunked", trailers.as_bytes());
        assert_eq!(
            parse(&bytes, true, LIMIT),
            Parsed::Invalid(FRAMING_TOO_LONG)
        );
    }

    /// The responses taken, (status, body, length) each, and why the connection stopped, if invalid.
    type Taken = (Vec<(u16, Vec<u8>, usize)>, Option<&'static str>);

    /// What a connection makes of `stream` arriving in `pieces` (cut at these lengths, the rest last): each response taken
    /// as soon as it is whole, as http1.rs takes them: (status, body, length) each, and the reason it stopped, if invalid.
    fn take_all(stream: &[u8], cuts: &[usize], limit: usize) -> Taken {
        let (mut arrived, mut start, mut taken) = (0, 0, Vec::new());
        let mut ends: Vec<usize> = cuts.iter().map(|&cut| cut.min(stream.len())).collect();
        ends.sort_unstable();
        ends.push(stream.len());
        for end in ends {
            arrived = arrived.max(end);
            loop {
                let buffer = &stream[start..arrived];
                match parse(buffer, true, limit) {
                    Parsed::Partial => break,
                    Parsed::Invalid(reason) => return (taken, Some(reason)),
                    Parsed::Complete(response) => {
                        assert!(response.length > 0 && response.length <= buffer.len());
                        let body = response.body.bytes(buffer, &mut Vec::new()).to_vec();
                        taken.push((response.status, body, response.length));
                        start += response.length;
                    }
                }
            }
        }
        (taken, None)
    }

    /// A well-formed response: a status, a body sent with a length or in chunks of the given sizes, maybe a trailer.
    fn well_formed(
        status: u16,
        body: &[u8],
        chunk_sizes: Option<&[usize]>,
        trailer: bool,
    ) -> Vec<u8> {
        let Some(sizes) = chunk_sizes else {
            return [
                format!(
                    "HTTP/1.1 {status} X\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                )
                .as_bytes(),
                body,
            ]
            .concat();
        };
        let mut out =
            format!("HTTP/1.1 {status} X\r\nTransfer-Encoding: chunked\r\n\r\n").into_bytes();
        let mut rest = body;
        for &size in sizes.iter().chain(std::iter::once(&usize::MAX)) {
            let (chunk, after) = rest.split_at(size.min(rest.len()));
            if !chunk.is_empty() {
                out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
                out.extend_from_slice(chunk);
                out.extend_from_slice(b"\r\n");
            }
            rest = after;
        }
        out.extend_from_slice(if trailer {
            &b"0\r\nX-T: 1\r\n\r\n"[..]
        } else {
            b"0\r\n\r\n"
        });
        out
    }

    fn a_response() -> impl Strategy<Value = (u16, Vec<u8>, Option<Vec<usize>>, bool)> {
        (
            prop_oneof![Just(200u16), Just(404), Just(500)],
            proptest::collection::vec(any::<u8>(), 0..200),
            proptest::option::of(proptest::collection::vec(1usize..40, 0..6)),
            any::<bool>(),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_bytes_in_arbitrary_pieces_never_panic_the_response_parser(
            bytes in proptest::collection::vec(any::<u8>(), 0..400),
            cuts in proptest::collection::vec(0usize..400, 0..8),
            limit in 1usize..64,
        ) {
            let (taken, _) = take_all(&bytes, &cuts, limit);
            prop_assert!(taken.iter().map(|(_, _, length)| length).sum::<usize>() <= bytes.len());
            prop_assert!(taken.iter().all(|(_, body, _)| body.len() <= limit));
        }

        #[test]
        fn arbitrary_bytes_after_a_chunked_head_never_panic_the_chunked_decoder(
            body in proptest::collection::vec(prop_oneof![
                Just(b'0'), Just(b'f'), Just(b'\r'), Just(b'\n'), Just(b';'), any::<u8>()
            ], 0..300),
            cuts in proptest::collection::vec(0usize..400, 0..8),
        ) {
            let stream = lying("Transfer-Encoding: chunked", &body);
            let (taken, _) = take_all(&stream, &cuts, 32);
            prop_assert!(taken.iter().all(|(_, body, _)| body.len() <= 32));
        }

        #[test]
        fn well_formed_responses_split_anywhere_parse_to_what_they_are_whole(
            responses in proptest::collection::vec(a_response(), 1..4),
            cuts in proptest::collection::vec(0usize..1200, 0..10),
        ) {
            let stream: Vec<u8> = responses.iter()
                .flat_map(|(status, body, sizes, trailer)| well_formed(*status, body, sizes.as_deref(), *trailer))
                .collect();
            let whole = take_all(&stream, &[], LIMIT);
            let expected: Vec<(u16, Vec<u8>)> = responses.iter().map(|(status, body, _, _)| (*status, body.clone())).collect();
            prop_assert_eq!(whole.1, None);
            prop_assert_eq!(whole.0.iter().map(|(status, body, _)| (*status, body.clone())).collect::<Vec<_>>(), expected);
            prop_assert_eq!(take_all(&stream, &cuts, LIMIT), whole);
        }
    }
}
