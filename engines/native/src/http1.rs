//! HTTP/1.1, in cleartext (protocol http1) or over TLS (protocol tls): each connection keeps `pipelining` requests in
//! flight, in a closed loop (each response sends the next request) or on the open model's schedule, every response
//! parsed, checked and timed against its own request's send time.

use crate::check::body_matches;
use crate::connection::{
    arrived, connect, read_more, secure, session_ended, ConnectionState, Ended, Schedule, Secured,
    ThreadContext, READ_BUFFER,
};
use crate::response::{parse, Parsed};

/// A response that came when no request was in flight, as the report names it.
pub const UNASKED: &str = "a response to no request";
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

/// HTTP/1.1, in cleartext or over TLS.
pub async fn connection(context: Rc<ThreadContext>, state: Rc<ConnectionState>) {
    let mut buffer = vec![0u8; READ_BUFFER];
    let mut scratch = Vec::new();
    let batch: Vec<u8> = context.target.requests[0].repeat(context.pipelining);
    loop {
        let Some(stream) = connect(&context, &state).await else {
            continue;
        };
        let ended = match &context.target.tls {
            None => {
                context.negotiated("http/1.1");
                arrived(&context, &state, true).await;
                http1_session(&context, &state, stream, &mut buffer, &mut scratch, &batch).await
            }
            Some(tls) => match secure(&context, &state, tls, stream).await {
                Secured::Ready(stream) => {
                    arrived(&context, &state, true).await;
                    http1_session(&context, &state, stream, &mut buffer, &mut scratch, &batch).await
                }
                Secured::Retry => continue,
                Secured::Fatal => return,
            },
        };
        session_ended(&context, &state, ended);
    }
}

async fn http1_session<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    state: &ConnectionState,
    mut stream: S,
    buffer: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
    batch: &[u8],
) -> Ended {
    match &context.schedule {
        None => closed_loop(context, state, &mut stream, buffer, scratch, batch).await,
        Some(schedule) => open_loop(context, state, &mut stream, buffer, scratch, schedule).await,
    }
}

/// Keeps `pipelining` requests in flight: every response sends the next request, a read's worth at once.
async fn closed_loop<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    state: &ConnectionState,
    stream: &mut S,
    buffer: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
    batch: &[u8],
) -> Ended {
    let mut outgoing = Vec::new();
    if stream
        .write_all(next_requests(
            context,
            state,
            context.pipelining,
            batch,
            &mut outgoing,
        ))
        .await
        .is_err()
    {
        return Ended::Failed;
    }
    let now = Instant::now();
    state
        .sent
        .borrow_mut()
        .extend(std::iter::repeat_n(now, context.pipelining));
    let mut filled = 0;
    loop {
        let Some(read) = read_more(stream, buffer, &mut filled, context.read_limit_bytes()).await
        else {
            return Ended::Failed;
        };
        let now = Instant::now();
        let (completed, ended) = take_responses(
            context,
            buffer,
            &mut filled,
            read,
            scratch,
            &mut state.sent.borrow_mut(),
            now,
        );
        if let Some(ended) = ended {
            return ended;
        }
        if completed > 0 {
            // In flight from now on (the windows see them while the write waits).
            state
                .sent
                .borrow_mut()
                .extend(std::iter::repeat_n(now, completed));
            if stream
                .write_all(next_requests(
                    context,
                    state,
                    completed,
                    batch,
                    &mut outgoing,
                ))
                .await
                .is_err()
            {
                // Requests that could not be written are not lost ones: only those already in flight count as errors.
                unsent(context, state, completed);
                return Ended::Failed;
            }
        }
    }
}

/// The bytes of this connection's next `count` requests: the start of the batch when every request is the same, else the
/// next of the requests in turn, gathered in `outgoing`.
fn next_requests<'a>(
    context: &ThreadContext,
    state: &ConnectionState,
    count: usize,
    batch: &'a [u8],
    outgoing: &'a mut Vec<u8>,
) -> &'a [u8] {
    let requests = &context.target.requests;
    if requests.len() == 1 {
        return &batch[..count * requests[0].len()];
    }
    outgoing.clear();
    for _ in 0..count {
        outgoing.extend_from_slice(&requests[state.take_request(requests.len())]);
    }
    outgoing
}

/// Takes back the `count` requests sent last, which could not be written: in flight until now, never answered.
fn unsent(context: &ThreadContext, state: &ConnectionState, count: usize) {
    let now = Instant::now();
    let mut sent = state.sent.borrow_mut();
    let mut stats = context.stats.borrow_mut();
    for _ in 0..count {
        if let Some(at) = sent.pop_back() {
            stats.in_flight_until(at, now);
        }
    }
}

/// Sends each queued intended time as soon as this connection has room (at most `pipelining` in flight) and
/// times its response from the intended time, so a stalled server shows in the latency.
async fn open_loop<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    state: &ConnectionState,
    stream: &mut S,
    buffer: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
    schedule: &Schedule,
) -> Ended {
    let mut filled = 0;
    loop {
        while state.sent.borrow().len() < context.pipelining {
            let Some(intended) = schedule.queue.borrow_mut().pop_front() else {
                break;
            };
            state.sent.borrow_mut().push_back(intended);
            let requests = &context.target.requests;
            let request = &requests[state.take_request(requests.len())];
            if stream.write_all(request).await.is_err() {
                unsent(context, state, 1);
                return Ended::Failed;
            }
        }
        let in_flight = state.sent.borrow().len();
        let read = if in_flight == 0 {
            schedule.ready.notified().await;
            continue;
        } else if in_flight < context.pipelining {
            tokio::select! {
                read = read_more(stream, buffer, &mut filled, context.read_limit_bytes()) => read,
                _ = schedule.ready.notified() => continue,
            }
        } else {
            read_more(stream, buffer, &mut filled, context.read_limit_bytes()).await
        };
        let Some(read) = read else {
            return Ended::Failed;
        };
        let (_, ended) = take_responses(
            context,
            buffer,
            &mut filled,
            read,
            scratch,
            &mut state.sent.borrow_mut(),
            Instant::now(),
        );
        if let Some(ended) = ended {
            return ended;
        }
    }
}

/// Takes every complete response out of the buffer: timed against its request's send time, counted,
/// checked. Returns how many completed, and why the connection ends, if it does.
#[allow(clippy::too_many_arguments)]
fn take_responses(
    context: &ThreadContext,
    buffer: &mut [u8],
    filled: &mut usize,
    read: usize,
    scratch: &mut Vec<u8>,
    sent: &mut VecDeque<Instant>,
    now: Instant,
) -> (usize, Option<Ended>) {
    *filled += read;
    let mut start = 0;
    let mut completed = 0;
    let mut ended = None;
    let mut stats = context.stats.borrow_mut();
    stats.bytes += read as u64;
    while start < *filled {
        let bytes = &buffer[start..*filled];
        match parse(bytes, context.keep_body, context.body_limit_bytes) {
            Parsed::Partial => break,
            Parsed::Invalid(reason) => {
                stats.invalid(reason);
                ended = Some(Ended::Failed);
                break;
            }
            Parsed::Complete(response) => {
                let Some(sent_at) = sent.pop_front() else {
                    stats.invalid(UNASKED);
                    ended = Some(Ended::Failed);
                    break;
                };
                let body_ok = !context.keep_body
                    || body_matches(&context.expected_body, response.body.bytes(bytes, scratch));
                stats.response(sent_at, now, response.status, body_ok);
                start += response.length;
                completed += 1;
                if response.closes {
                    ended = Some(if sent.is_empty() {
                        Ended::Closed
                    } else {
                        Ended::Failed
                    });
                    break;
                }
            }
        }
    }
    drop(stats);
    context.count_responses(completed as u64);
    // Keep what is left of a partial response at the front.
    buffer.copy_within(start..*filled, 0);
    *filled -= start;
    (completed, ended)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BodyExpectation, Protocol};
    use crate::connection::test_context;
    use crate::stats::{latency_us, ThreadStats};
    use crate::target::Target;
    use std::collections::BTreeMap;
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    /// Five responses as a server sends them back to back to five pipelined requests: one with a length, one
    /// chunked, one 404, one with its header in lower case, one 204 without a body.
    const RESPONSES: [&[u8]; 5] = [
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n",
        b"HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\nnope!",
        b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello",
        b"HTTP/1.1 204 No Content\r\n\r\n",
    ];

    /// One connection's side of `take_responses`: its buffer, kept bytes and send times, on one thread.
    struct Connection {
        context: ThreadContext,
        buffer: Vec<u8>,
        filled: usize,
        scratch: Vec<u8>,
        sent: VecDeque<Instant>,
    }

    impl Connection {
        fn new(expected_body: BodyExpectation, sent: &[Instant]) -> Self {
            let target = Target {
                protocol: Protocol::Http1,
                address: "127.0.0.1:1".parse().unwrap(),
                tls: None,
                requests: vec![b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec()],
                http2: None,
                websocket: None,
            };
            let context = test_context(target, expected_body, sent.len(), 1);
            let buffer = vec![0; READ_BUFFER];
            Connection {
                context,
                buffer,
                filled: 0,
                scratch: Vec::new(),
                sent: sent.iter().copied().collect(),
            }
        }

        /// `bytes` arrive in one read at `now`.
        fn read(&mut self, bytes: &[u8], now: Instant) -> (usize, Option<Ended>) {
            self.buffer[self.filled..self.filled + bytes.len()].copy_from_slice(bytes);
            let Connection {
                context,
                buffer,
                filled,
                scratch,
                sent,
            } = self;
            take_responses(context, buffer, filled, bytes.len(), scratch, sent, now)
        }

        fn stats(&self) -> std::cell::Ref<'_, ThreadStats> {
            self.context.stats.borrow()
        }

        fn responses_counted_for_progress(&self) -> u64 {
            self.context.shared.responses[0].load(Ordering::Relaxed)
        }
    }

    fn hello() -> BodyExpectation {
        BodyExpectation::Exact {
            text: "hello".into(),
        }
    }

    fn ms(count: u64) -> Duration {
        Duration::from_millis(count)
    }

    /// How many responses of the histogram took `latency` (to its precision: these are whole ms apart).
    fn timed(stats: &ThreadStats, latency: Duration) -> u64 {
        stats.histogram.count_at(latency_us(latency))
    }

    #[test]
    fn pipelined_responses_in_one_read_are_each_counted_once_against_their_own_send_time() {
        let t0 = Instant::now();
        let sent: Vec<Instant> = (0..5).map(|n| t0 + ms(n)).collect();
        let mut connection = Connection::new(hello(), &sent);
        let all = RESPONSES.concat();
        let (completed, ended) = connection.read(&all, t0 + ms(10));
        assert_eq!(completed, 5);
        assert!(ended.is_none());
        assert!(connection.sent.is_empty(), "every send time was used");
        assert_eq!(connection.filled, 0, "nothing is left over");
        assert_eq!(connection.responses_counted_for_progress(), 5);
        let stats = connection.stats();
        assert_eq!(
            (stats.requests, stats.bytes, stats.errors),
            (5, all.len() as u64, 0)
        );
        // The 404's "nope!" and the 204's empty body are not "hello"; the chunked "hel" + "lo" is.
        assert_eq!(stats.mismatches, 2);
        assert_eq!(
            stats.status_counts(),
            BTreeMap::from([(200, 3), (204, 1), (404, 1)])
        );
        // The first response against the first send time (10 ms), the last against the last (6 ms).
        for latency in [ms(10), ms(9), ms(8), ms(7), ms(6)] {
            assert_eq!(timed(&stats, latency), 1, "one response took {latency:?}");
        }
        assert_eq!(stats.window_requests, 5);
    }

    #[test]
    fn responses_split_anywhere_across_reads_are_each_counted_once_when_their_last_byte_arrives() {
        let all = RESPONSES.concat();
        // Where each response ends in the stream.
        let ends: Vec<usize> = RESPONSES
            .iter()
            .scan(0, |end, response| {
                *end += response.len();
                Some(*end)
            })
            .collect();
        for read_size in 1..=all.len() {
            let t0 = Instant::now();
            let mut connection = Connection::new(hello(), &[t0; 5]);
            let mut received = 0;
            let mut completed = 0;
            for piece in all.chunks(read_size) {
                let before = received;
                received += piece.len();
                let (now_completed, ended) = connection.read(piece, t0 + ms(1));
                assert!(
                    ended.is_none(),
                    "reads of {read_size} bytes: the connection ended"
                );
                let due = ends
                    .iter()
                    .filter(|&&end| before < end && end <= received)
                    .count();
                assert_eq!(
                    now_completed, due,
                    "reads of {read_size} bytes: bytes {before}..{received}"
                );
                assert_eq!(
                    connection.filled,
                    received
                        - ends
                            .iter()
                            .copied()
                            .filter(|&end| end <= received)
                            .max()
                            .unwrap_or(0)
                );
                completed += now_completed;
            }
            assert_eq!(completed, 5, "reads of {read_size} bytes");
            let stats = connection.stats();
            assert_eq!(
                (stats.requests, stats.mismatches, stats.bytes),
                (5, 2, all.len() as u64),
                "reads of {read_size} bytes"
            );
            assert_eq!(connection.responses_counted_for_progress(), 5);
            assert_eq!(connection.filled, 0);
        }
    }

    #[test]
    fn a_response_split_across_reads_is_timed_when_it_completes_against_its_own_send_time() {
        let t0 = Instant::now();
        let mut connection = Connection::new(hello(), &[t0, t0 + ms(1), t0 + ms(2)]);
        let all = [RESPONSES[0], RESPONSES[1], RESPONSES[3]].concat();
        // The first response and half of the chunked one at 5 ms, the rest at 20 ms.
        let split = RESPONSES[0].len() + RESPONSES[1].len() / 2;
        assert_eq!(connection.read(&all[..split], t0 + ms(5)).0, 1);
        assert_eq!(
            connection.sent.len(),
            2,
            "the send times of the two unanswered requests are kept"
        );
        assert_eq!(connection.read(&all[split..], t0 + ms(20)).0, 2);
        let stats = connection.stats();
        // 5 ms for the first (sent at 0), 19 ms and 18 ms for those sent at 1 and 2 ms: each its own send time.
        for latency in [ms(5), ms(19), ms(18)] {
            assert_eq!(timed(&stats, latency), 1, "one response took {latency:?}");
        }
        assert_eq!((stats.requests, stats.mismatches), (3, 0));
    }

    #[test]
    fn without_a_body_check_chunked_bodies_are_skipped_but_still_counted() {
        let t0 = Instant::now();
        let mut connection = Connection::new(BodyExpectation::None, &[t0; 5]);
        assert_eq!(connection.read(&RESPONSES.concat(), t0).0, 5);
        assert_eq!(
            (connection.stats().requests, connection.stats().mismatches),
            (5, 0)
        );
    }

    #[test]
    fn a_closing_response_ends_the_connection_cleanly_only_when_nothing_else_is_in_flight() {
        let close = b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello";
        let t0 = Instant::now();

        let mut last = Connection::new(hello(), &[t0, t0]);
        let (completed, ended) = last.read(&[RESPONSES[0], close].concat(), t0);
        assert!(completed == 2 && ended == Some(Ended::Closed));

        // Closed with a request still in flight: the rest of the read is not looked at, the request is lost.
        let mut early = Connection::new(hello(), &[t0, t0, t0]);
        let (completed, ended) = early.read(&[close, RESPONSES[0]].concat(), t0);
        assert!(completed == 1 && ended == Some(Ended::Failed));
        assert_eq!((early.stats().requests, early.sent.len()), (1, 2));
    }

    #[test]
    fn a_response_nobody_asked_for_or_bytes_that_are_not_http_fail_the_connection() {
        let t0 = Instant::now();
        let mut unasked = Connection::new(hello(), &[t0]);
        let (completed, ended) = unasked.read(&[RESPONSES[0], RESPONSES[3]].concat(), t0);
        assert!(completed == 1 && ended == Some(Ended::Failed));
        assert_eq!(unasked.stats().requests, 1);

        let mut garbage = Connection::new(hello(), &[t0, t0]);
        let (completed, ended) =
            garbage.read(&[RESPONSES[0], b"SSH-2.0-OpenSSH\r\n\r\n"].concat(), t0);
        assert!(completed == 1 && ended == Some(Ended::Failed));
        assert_eq!(garbage.stats().requests, 1);
        for (connection, reason) in [(&unasked, UNASKED), (&garbage, crate::response::NOT_HTTP)] {
            let stats = connection.stats();
            assert_eq!(stats.invalid_responses, 1);
            assert_eq!(stats.failures, BTreeMap::from([(reason, 1)]));
        }
    }

    #[test]
    fn a_length_that_cannot_be_is_an_invalid_response_named_and_the_connection_ends() {
        let t0 = Instant::now();
        let mut connection = Connection::new(hello(), &[t0, t0]);
        let lie = b"HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551615\r\n\r\nhello";
        let (completed, ended) = connection.read(&[RESPONSES[0], lie].concat(), t0);
        assert!(completed == 1 && ended == Some(Ended::Failed));
        let stats = connection.stats();
        assert_eq!((stats.requests, stats.invalid_responses), (1, 1));
        assert_eq!(
            stats.failures,
            BTreeMap::from([(crate::response::CONTENT_LENGTH_OVER_LIMIT, 1)])
        );
    }

    #[test]
    fn requests_in_turn_go_round_from_the_connections_own_first() {
        let target = Target {
            protocol: Protocol::Http1,
            address: "127.0.0.1:1".parse().unwrap(),
            tls: None,
            requests: vec![b"a".to_vec(), b"bb".to_vec(), b"ccc".to_vec()],
            http2: None,
            websocket: None,
        };
        let context = test_context(target, BodyExpectation::None, 4, 1);
        let state = ConnectionState::starting_at(2);
        let mut outgoing = Vec::new();
        assert_eq!(
            next_requests(&context, &state, 4, b"", &mut outgoing),
            b"cccabbccc"
        );
        assert_eq!(next_requests(&context, &state, 1, b"", &mut outgoing), b"a");
    }

    #[test]
    fn one_request_is_sent_from_the_batch_as_before() {
        let context = Connection::new(BodyExpectation::None, &[]).context;
        let batch = context.target.requests[0].repeat(3);
        let mut outgoing = Vec::new();
        let state = ConnectionState::default();
        assert_eq!(
            next_requests(&context, &state, 2, &batch, &mut outgoing),
            &batch[..batch.len() / 3 * 2]
        );
        assert!(outgoing.is_empty());
    }
}
