//! HTTP/2, over TLS (h2, ALPN `h2`) or in cleartext with prior knowledge (h2c), on the `h2` crate: each connection
//! keeps `streams` requests in flight, each stream sending its next request as soon as its response has come
//! (closed loop) or taking the next intended send time of the schedule (open model), every response's status counted
//! and body checked as HTTP/1.1's are.
//!
//! Why `h2` and not hyper's client: hyper's HTTP/2 client is `h2` under a layer made for applications (a body
//! trait, an executor, a connection pool in hyper-util) that a load generator does not use and pays for on every
//! request; `h2` gives each stream's send and receive directly, the server's stream limit (`ready()` waits for a
//! slot), flow control in our hands, and the body as the frames brought it.

use crate::check::body_matches;
use crate::config::MAX_HEAD_BYTES;
use crate::connection::{
    arrived, connect, secure, session_ended, ConnectionState, Ended, Secured, ThreadContext,
};
use crate::http2_request::H2Request;
use bytes::Bytes;
use futures_util::stream::{FuturesUnordered, StreamExt};
use h2::client::SendRequest;
use std::cell::{Cell, RefCell};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;

/// The flow-control windows the client grants, per stream and per connection: h2load's defaults (2^30 − 1), so that
/// the two clients compared wait for the same WINDOW_UPDATEs (none, for responses of the contract's size).
const WINDOW: u32 = (1 << 30) - 1;
/// How many of the server's first bytes are kept, to name what a server that does not speak HTTP/2 answered.
const FIRST_BYTES: usize = 64;
/// A SETTINGS frame: what every HTTP/2 server sends first (RFC 9113 §3.4); its type is the fourth byte of the header.
const SETTINGS_FRAME: u8 = 0x4;
/// Why a session or a stream failed, as the report names it.
const SETTINGS_TIMED_OUT: &str = "the HTTP/2 server sent nothing within handshakeTimeoutMs";
const CONTENT_LENGTH_OVER_LIMIT: &str = "an HTTP/2 content-length over bodyLimitBytes";
const BODY_OVER_LIMIT: &str = "an HTTP/2 body over bodyLimitBytes";

/// One HTTP/2 connection, opened again whenever the server closes it or it fails, until the thread stops it or the
/// run cannot go on (TLS refused, or a server that does not speak HTTP/2).
pub async fn connection(context: Rc<ThreadContext>, state: Rc<ConnectionState>) {
    loop {
        let Some(tcp) = connect(&context, &state).await else {
            continue;
        };
        let ended = match &context.target.tls {
            None => session(&context, &state, tcp).await,
            Some(tls) => match secure(&context, &state, tls, tcp).await {
                Secured::Ready(stream) => session(&context, &state, stream).await,
                Secured::Retry => continue,
                Secured::Fatal => return,
            },
        };
        match ended {
            Some(ended) => session_ended(&context, &state, ended),
            None => return,
        }
    }
}

/// What a session's connection read: counted, its first bytes kept (`spoke` told when they come).
#[derive(Default)]
struct Received {
    first: RefCell<Vec<u8>>,
    spoke: Notify,
    answered: Cell<bool>,
}

/// What one request came to.
enum Exchange {
    /// Its status, and whether the body is the one expected.
    Answered(u16, bool),
    /// A response refused (its body over the limit), for this reason; the stream is dropped, the connection goes on.
    Invalid(&'static str),
}

/// One HTTP/2 session on an open connection: the handshake (the connection is up once the server has answered its preface,
/// within the handshake deadline), then `streams` stream loops polled in this task (so that the watchdog, aborting the task,
/// ends them all at once) beside the connection's own driver. None: the run cannot go on (the reason is given to the phase).
async fn session<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    state: &ConnectionState,
    io: S,
) -> Option<Ended> {
    let received = Received::default();
    let io = Counted {
        inner: io,
        bytes: &context.received,
        received: &received,
    };
    let handshake = h2::client::Builder::new()
        .initial_window_size(WINDOW)
        .initial_connection_window_size(WINDOW)
        .max_header_list_size(MAX_HEAD_BYTES as u32)
        .enable_push(false)
        .handshake::<_, Bytes>(io);
    let deadline = tokio::time::Instant::now() + context.handshake_timeout;
    let (client, driver) = match tokio::time::timeout_at(deadline, handshake).await {
        Ok(Ok(pair)) => pair,
        Ok(Err(_)) => return failed_to_start(context, state, &received, None).await,
        Err(_) => {
            return failed_to_start(context, state, &received, Some(SETTINGS_TIMED_OUT)).await
        }
    };
    let mut driver = std::pin::pin!(driver);
    // The connection is up once the server said something (its SETTINGS, or what shows it speaks no HTTP/2).
    tokio::select! {
        _ = &mut driver => return failed_to_start(context, state, &received, None).await,
        spoke = tokio::time::timeout_at(deadline, received.spoke.notified()) => if spoke.is_err() {
            return failed_to_start(context, state, &received, Some(SETTINGS_TIMED_OUT)).await;
        },
    }
    arrived(context, state, true).await;
    {
        let mut slots = state.slots.borrow_mut();
        slots.clear();
        slots.resize(context.streams, None);
    }
    let mut streams: FuturesUnordered<_> = (0..context.streams)
        .map(|slot| stream_loop(context, state, client.clone(), slot, &received))
        .collect();
    drop(client);
    let failed = tokio::select! {
        result = &mut driver => result.is_err(),
        Some(_) = streams.next() => true,
    };
    drop(streams);
    if !received.answered.get() {
        if let Some(reason) = not_http2(context, &received.first.borrow()) {
            context.shared.fail(reason);
            return None;
        }
    }
    let idle = state.slots.borrow().iter().all(Option::is_none);
    Some(if failed || !idle {
        Ended::Failed
    } else {
        Ended::Closed
    })
}

/// A session that did not come up (`timed_out`: for that reason): the phase fails when what the server sent shows it does not
/// speak HTTP/2 (None), otherwise the connection failed and tries again.
async fn failed_to_start(
    context: &ThreadContext,
    state: &ConnectionState,
    received: &Received,
    timed_out: Option<&'static str>,
) -> Option<Ended> {
    if let Some(reason) = not_http2(context, &received.first.borrow()) {
        context.shared.fail(reason);
        return None;
    }
    if let Some(reason) = timed_out {
        context.stats.borrow_mut().name_failure(reason);
    }
    arrived(context, state, false).await;
    Some(Ended::Failed)
}

/// The reason a server that answered no request with what is not HTTP/2 does not speak it; None when its first
/// bytes were a SETTINGS frame, or it sent none (a connection lost is counted as such, not judged).
fn not_http2(context: &ThreadContext, first: &[u8]) -> Option<String> {
    if first.is_empty() || first.get(3) == Some(&SETTINGS_FRAME) {
        return None;
    }
    let protocol = context.target.protocol.name();
    let address = context.target.address;
    let line = first
        .split(|&byte| byte == b'\r' || byte == b'\n')
        .next()
        .unwrap_or(first);
    Some(if first.starts_with(b"HTTP/") {
        format!(
            "protocol {protocol}: the server at {address} answered the HTTP/2 connection preface with HTTP/1 (`{}`): it does not speak \
             HTTP/2{}",
            String::from_utf8_lossy(line),
            if protocol == "h2c" { " with prior knowledge" } else { "" }
        )
    } else {
        format!(
            "protocol {protocol}: the server at {address} answered the HTTP/2 connection preface with what is not a SETTINGS frame \
             ({:02x?})",
            &first[..first.len().min(16)]
        )
    })
}

/// One stream of a session, sending one request after another until the session ends; returns the error that ended it.
async fn stream_loop(
    context: &ThreadContext,
    state: &ConnectionState,
    mut client: SendRequest<Bytes>,
    slot: usize,
    received: &Received,
) -> h2::Error {
    let Some(request) = context.target.http2.as_ref() else {
        unreachable!("protocols h2 and h2c have their request");
    };
    let mut body = Vec::new();
    // A request the server refused unprocessed (REFUSED_STREAM): sent again; in the open model, from its intended time still.
    let mut refused: Option<Option<Instant>> = None;
    loop {
        // Open model: the next intended time, and in flight from then (waiting for a stream slot is the server's doing).
        let intended = match (refused.take(), &context.schedule) {
            (Some(again), _) => {
                state.slots.borrow_mut()[slot] = again;
                again
            }
            (None, None) => None,
            (None, Some(schedule)) => {
                let permit = schedule
                    .permits
                    .acquire()
                    .await
                    .expect("the schedule's semaphore is never closed");
                permit.forget();
                let Some(intended) = schedule.queue.borrow_mut().pop_front() else {
                    continue;
                };
                state.slots.borrow_mut()[slot] = Some(intended);
                Some(intended)
            }
        };
        client = match client.ready().await {
            Ok(ready) => ready,
            Err(error) => return error,
        };
        let sent = intended.unwrap_or_else(Instant::now);
        state.slots.borrow_mut()[slot] = Some(sent);
        let outcome = exchange(context, request, &mut client, &mut body).await;
        let now = Instant::now();
        state.slots.borrow_mut()[slot] = None;
        match outcome {
            Ok(Exchange::Answered(status, body_ok)) => {
                context
                    .stats
                    .borrow_mut()
                    .response(sent, now, status, body_ok);
                context.count_responses(1);
                if !received.answered.replace(true) && context.target.tls.is_none() {
                    context.negotiated("h2c");
                }
            }
            Ok(Exchange::Invalid(reason)) => {
                let mut stats = context.stats.borrow_mut();
                stats.in_flight_until(sent, now);
                stats.invalid(reason);
                stats.error(1);
            }
            // Refused before the server processed it (RFC 9113 §8.7): streams opened before its SETTINGS said how many it
            // takes. No answer and no error: it goes again once a stream is free.
            Err(error)
                if error.is_reset() && error.reason() == Some(h2::Reason::REFUSED_STREAM) =>
            {
                context.stats.borrow_mut().in_flight_until(sent, now);
                refused = Some(intended);
            }
            // The server reset this stream otherwise (RST_STREAM): this request failed, the connection goes on.
            Err(error) if error.is_reset() => {
                let mut stats = context.stats.borrow_mut();
                stats.in_flight_until(sent, now);
                stats.error(1);
            }
            Err(error) => {
                // Still in flight as far as the session's end is concerned: it counts it lost.
                state.slots.borrow_mut()[slot] = Some(sent);
                return error;
            }
        }
    }
}

/// One request and its response: the status, and whether the body is the one expected (read whole, flow control
/// released as it comes), or why the response was refused.
async fn exchange(
    context: &ThreadContext,
    request: &H2Request,
    client: &mut SendRequest<Bytes>,
    buffer: &mut Vec<u8>,
) -> Result<Exchange, h2::Error> {
    let no_body = request.body.is_empty();
    let (response, mut send) = client.send_request(request.request(), no_body)?;
    if !no_body {
        send.send_data(request.body.clone(), true)?;
    }
    let response = response.await?;
    let status = response.status().as_u16();
    let limit_bytes = context.body_limit_bytes;
    if content_length(response.headers()).is_some_and(|stated| stated > limit_bytes as u64) {
        return Ok(Exchange::Invalid(CONTENT_LENGTH_OVER_LIMIT));
    }
    let mut stream = response.into_body();
    let mut body_bytes = 0usize;
    // A body that came in one DATA frame is checked where it lies; one in several is put together first.
    let mut whole: Option<Bytes> = None;
    buffer.clear();
    while let Some(chunk) = stream.data().await {
        let chunk = chunk?;
        let _ = stream.flow_control().release_capacity(chunk.len());
        body_bytes = body_bytes.saturating_add(chunk.len());
        if body_bytes > limit_bytes {
            return Ok(Exchange::Invalid(BODY_OVER_LIMIT));
        }
        if !context.keep_body || chunk.is_empty() {
            continue;
        }
        match whole.take() {
            None if buffer.is_empty() => whole = Some(chunk),
            previous => {
                if let Some(previous) = previous {
                    buffer.extend_from_slice(&previous);
                }
                buffer.extend_from_slice(&chunk);
            }
        }
    }
    let body_ok = !context.keep_body
        || body_matches(
            &context.expected_body,
            whole.as_deref().unwrap_or(buffer.as_slice()),
        );
    Ok(Exchange::Answered(status, body_ok))
}

/// The content-length a response states, when it states one that is a number.
fn content_length(headers: &http::HeaderMap) -> Option<u64> {
    headers
        .get(http::header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// The connection under HTTP/2: every byte read counted, the first ones kept.
struct Counted<'a, S> {
    inner: S,
    bytes: &'a Cell<u64>,
    received: &'a Received,
}

impl<S: AsyncRead + Unpin> AsyncRead for Counted<'_, S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        let read = &buf.filled()[before..];
        if !read.is_empty() {
            self.bytes.set(self.bytes.get() + read.len() as u64);
            let mut first = self.received.first.borrow_mut();
            if first.is_empty() {
                self.received.spoke.notify_one();
            }
            if first.len() < FIRST_BYTES {
                let room = FIRST_BYTES - first.len();
                first.extend_from_slice(&read[..read.len().min(room)]);
            }
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Counted<'_, S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::BodyExpectation;
    use crate::config::{HttpRequest, Protocol};
    use crate::connection::test_context;
    use crate::target::Target;

    /// A thread's context whose connections send `GET /` over h2c with `streams` streams each, expecting "hello".
    fn context(streams: usize) -> ThreadContext {
        let http = HttpRequest {
            method: "GET".into(),
            path: "/".into(),
            authority: "localhost:1".into(),
            headers: vec![("accept".into(), "text/plain".into())],
            body: None,
        };
        let target = Target {
            protocol: Protocol::H2c,
            address: "127.0.0.1:1".parse().unwrap(),
            tls: None,
            requests: vec![Vec::new()],
            http2: Some(H2Request::new(&http, Protocol::H2c).unwrap()),
            websocket: None,
        };
        let expected = BodyExpectation::Exact {
            text: "hello".into(),
        };
        test_context(target, expected, 1, streams)
    }

    /// An HTTP/2 server allowing `limit` concurrent streams: round after round, it holds the requests until `hold` are open
    /// at once, then answers them all ("hello"); `most` is the most it ever held open.
    async fn serve<S: AsyncRead + AsyncWrite + Unpin>(
        io: S,
        limit: u32,
        hold: usize,
        most: &Cell<usize>,
    ) {
        let mut connection = h2::server::Builder::new()
            .max_concurrent_streams(limit)
            .handshake::<_, Bytes>(io)
            .await
            .expect("the client's preface");
        let mut held = Vec::new();
        loop {
            while held.len() < hold {
                let (_, respond) = connection
                    .accept()
                    .await
                    .expect("a stream")
                    .expect("no error");
                held.push(respond);
                most.set(most.get().max(held.len()));
            }
            for mut respond in held.drain(..) {
                let mut body = respond
                    .send_response(http::Response::new(()), false)
                    .expect("the response's head");
                body.send_data(Bytes::from_static(b"hello"), true)
                    .expect("its body");
            }
        }
    }

    /// Runs a session of the context's streams against `serve(limit, hold)` until the client has read `responses`;
    /// returns the most the server held open.
    fn run(context: &ThreadContext, limit: u32, hold: usize, responses: u64) -> usize {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let state = ConnectionState::default();
        let (client, server) = tokio::io::duplex(64 * 1024);
        let most = Cell::new(0);
        runtime.block_on(async {
            let enough = async {
                while context.stats.borrow().requests < responses {
                    tokio::task::yield_now().await;
                }
            };
            tokio::select! {
                ended = session(context, &state, client) => panic!("the session ended first: {ended:?}"),
                () = serve(server, limit, hold, &most) => unreachable!("the server answers until dropped"),
                () = enough => {}
            }
        });
        most.get()
    }

    #[test]
    fn a_connection_keeps_as_many_streams_in_flight_as_asked_and_checks_every_response() {
        let context = context(5);
        let most = run(&context, 100, 5, 20);
        assert_eq!(most, 5, "the server saw the 5 streams open at once");
        let stats = context.stats.borrow();
        assert_eq!((stats.errors, stats.mismatches), (0, 0));
        assert_eq!(stats.status_counts().get(&200), Some(&stats.requests));
        assert!(context.received.get() > 0, "the bytes read are counted");
        assert!(stats.negotiated.contains("h2c"));
    }

    #[test]
    fn streams_beyond_the_servers_limit_wait_for_a_slot_without_an_error() {
        let context = context(5);
        let most = run(&context, 2, 2, 20);
        assert_eq!(most, 2, "never more streams open than the server allows");
        let stats = context.stats.borrow();
        assert_eq!((stats.errors, stats.mismatches), (0, 0));
    }
}
