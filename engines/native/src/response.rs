//! Finds the next complete HTTP/1.1 response in what a connection has read: the head through httparse,
//! the body by Content-Length or chunked (chunk sizes through httparse too).

use std::ops::Range;

/// Response heads with more headers than this are refused (a SUT of the contract sends a handful).
const MAX_HEADERS: usize = 64;

pub enum Parsed {
    /// Not all of the next response has arrived yet.
    Partial,
    Complete(Response),
    /// Not HTTP: the connection cannot go on.
    Invalid,
}

pub struct Response {
    /// Bytes of the buffer the response took, head and body.
    pub length: usize,
    pub status: u16,
    /// Where the body is: one range (Content-Length) or one per chunk.
    pub body: Body,
    /// The server closes the connection after this response.
    pub closes: bool,
}

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

/// The next response at the start of `buffer`.
pub fn parse(buffer: &[u8], keep_chunks: bool) -> Parsed {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let head_length = match response.parse(buffer) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => return Parsed::Partial,
        Err(_) => return Parsed::Invalid,
    };
    let status = response.code.unwrap_or(0);
    let mut content_length: Option<usize> = None;
    let mut chunked = false;
    let mut closes = response.version == Some(0);
    for header in response.headers.iter() {
        if header.name.eq_ignore_ascii_case("content-length") {
            match std::str::from_utf8(header.value)
                .ok()
                .and_then(|text| text.trim().parse().ok())
            {
                Some(length) => content_length = Some(length),
                None => return Parsed::Invalid,
            }
        } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = contains_token(header.value, b"chunked");
        } else if header.name.eq_ignore_ascii_case("connection") {
            if contains_token(header.value, b"close") {
                closes = true;
            } else if contains_token(header.value, b"keep-alive") {
                closes = false;
            }
        }
    }
    // 1xx, 204 and 304 have no body, whatever the head says.
    if (100..200).contains(&status) || status == 204 || status == 304 {
        return Parsed::Complete(Response {
            length: head_length,
            status,
            body: Body::Whole(head_length..head_length),
            closes,
        });
    }
    if chunked {
        return parse_chunks(buffer, head_length, status, closes, keep_chunks);
    }
    match content_length {
        Some(length) if buffer.len() >= head_length + length => Parsed::Complete(Response {
            length: head_length + length,
            status,
            body: Body::Whole(head_length..head_length + length),
            closes,
        }),
        Some(_) => Parsed::Partial,
        // Neither length nor chunks: the body runs until the server closes, which a keep-alive benchmark cannot use.
        None => Parsed::Invalid,
    }
}

fn parse_chunks(
    buffer: &[u8],
    head_length: usize,
    status: u16,
    closes: bool,
    keep_chunks: bool,
) -> Parsed {
    let mut position = head_length;
    let mut chunks = Vec::new();
    loop {
        let (size_length, size) = match httparse::parse_chunk_size(&buffer[position..]) {
            Ok(httparse::Status::Complete(found)) => found,
            Ok(httparse::Status::Partial) => return Parsed::Partial,
            Err(_) => return Parsed::Invalid,
        };
        position += size_length;
        if size == 0 {
            // Trailer fields, if any, then the empty line.
            loop {
                let Some(end) = find_crlf(&buffer[position..]) else {
                    return Parsed::Partial;
                };
                position += end + 2;
                if end == 0 {
                    let body = Body::Chunks(chunks);
                    return Parsed::Complete(Response {
                        length: position,
                        status,
                        body,
                        closes,
                    });
                }
            }
        }
        let Ok(size) = usize::try_from(size) else {
            return Parsed::Invalid;
        };
        if buffer.len() < position + size + 2 {
            return Parsed::Partial;
        }
        if &buffer[position + size..position + size + 2] != b"\r\n" {
            return Parsed::Invalid;
        }
        if keep_chunks {
            chunks.push(position..position + size);
        }
        position += size + 2;
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

    fn complete(bytes: &[u8]) -> Response {
        match parse(bytes, true) {
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
            parse(&bytes[response.length..], true),
            Parsed::Partial
        ));
        assert!(matches!(parse(&bytes[..30], true), Parsed::Partial));
    }

    #[test]
    fn puts_a_chunked_body_together_and_skips_trailers() {
        let bytes = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n";
        let response = complete(bytes);
        assert_eq!(response.length, bytes.len());
        assert_eq!(response.body.bytes(bytes, &mut Vec::new()), b"hello world");
        assert!(matches!(
            parse(&bytes[..bytes.len() - 1], true),
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
            parse(b"SSH-2.0-OpenSSH\r\n\r\n", true),
            Parsed::Invalid
        ));
        assert!(matches!(
            parse(b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", true),
            Parsed::Invalid
        ));
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
                match parse(&buffer[start..], true) {
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
                    Parsed::Invalid => panic!("{arrived} bytes: Invalid after {found} responses"),
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
}
