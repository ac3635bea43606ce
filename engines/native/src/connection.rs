//! What every protocol's connections stand on: the thread's context they share (the target, the counts, the open
//! model's schedule), what each connection has in flight, and the steps every protocol takes the same way (connecting,
//! the TLS handshake's outcome, the first attempt's end reported to the phase's clock, reading, a session's end).

use crate::config::{BodyExpectation, MAX_HEAD_BYTES};
use crate::phase::PhaseShared;
use crate::response::MAX_CHUNK_FRAMING_BYTES;
use crate::stats::ThreadStats;
use crate::target::Target;
use crate::tls::{Handshake, TlsTarget};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::net::TcpStream;
use tokio::sync::{Notify, Semaphore};
use tokio_rustls::client::TlsStream;

/// How long a connection waits before connecting again after a refused connect.
pub const RECONNECT_PAUSE: Duration = Duration::from_millis(10);
/// What a connection reads at a time; it grows for a response larger than this, up to the context's `read_limit_bytes`.
pub const READ_BUFFER: usize = 64 * 1024;
/// Why a connection did not come up, as the report names it.
pub const CONNECT_TIMED_OUT: &str = "the TCP connect ran out of handshakeTimeoutMs";
pub const TLS_TIMED_OUT: &str = "the TLS handshake ran out of handshakeTimeoutMs";

/// What the connections of one thread share.
pub struct ThreadContext {
    pub target: Arc<Target>,
    pub pipelining: usize,
    /// h2, h2c: streams per connection; ws: messages in flight per connection.
    pub streams: usize,
    pub expected_body: BodyExpectation,
    pub keep_body: bool,
    /// The longest body (or WebSocket message) taken; a longer one is an invalid response.
    pub body_limit_bytes: usize,
    /// The deadline of each step that brings a connection up: connect, TLS, HTTP/2's SETTINGS, the WebSocket upgrade.
    pub handshake_timeout: Duration,
    pub stats: RefCell<ThreadStats>,
    pub shared: Arc<PhaseShared>,
    pub index: usize,
    /// Open model: the intended send times not yet sent, and the signals that there are some.
    pub schedule: Option<Schedule>,
    /// Bytes read under a protocol layer that does not count its own (HTTP/2's frames), added to the counts at the end.
    pub received: Cell<u64>,
    /// ws: the phase is over; every connection closes with code 1000.
    pub closing: Cell<bool>,
    pub closing_signal: Notify,
}

impl ThreadContext {
    /// One more response (or message) for the progress line and the per-second rate.
    pub fn count_responses(&self, count: u64) {
        self.shared.responses[self.index].fetch_add(count, Ordering::Relaxed);
    }

    /// The most a connection's read buffer grows to: a head, a body and its chunk framing at their bounds, and one read
    /// more. The parsers refuse a response (or frame) past its bounds before the buffer gets there.
    pub fn read_limit_bytes(&self) -> usize {
        MAX_HEAD_BYTES + self.body_limit_bytes + MAX_CHUNK_FRAMING_BYTES + READ_BUFFER
    }

    /// What a connection of this thread spoke once established.
    pub fn negotiated(&self, protocol: &'static str) {
        self.stats.borrow_mut().negotiated.insert(protocol);
    }
}

/// Open model: the intended send times released and not yet sent.
pub struct Schedule {
    pub queue: RefCell<VecDeque<Instant>>,
    /// HTTP/1.1: wakes one connection waiting for a request to send per time queued (one left over is kept for the next to wait).
    pub ready: Notify,
    /// HTTP/2: one permit per queued time, so that each wakes one waiting stream (a Notify would wake them all).
    pub permits: Semaphore,
    pub interval: Duration,
    pub next: Cell<u32>,
}

/// What a connection has in flight, for the watchdog (timeouts) and the windows (time in flight).
#[derive(Default)]
pub struct ConnectionState {
    /// Its first attempt of the phase to come up has ended and was reported (its task restarted by the watchdog keeps it).
    pub arrived: Cell<bool>,
    /// HTTP/1.1 and WebSocket: when each request in flight was sent (or meant to be sent, in the open model), in the
    /// order the answers come.
    pub sent: RefCell<VecDeque<Instant>>,
    /// HTTP/2: the same, one slot per stream.
    pub slots: RefCell<Vec<Option<Instant>>>,
    /// HTTP/1.1 with requests in turn: the index of the next one it sends.
    pub next_request: Cell<usize>,
}

impl ConnectionState {
    /// A connection that sends requests in turn from `first_request` on.
    pub fn starting_at(first_request: usize) -> Self {
        ConnectionState {
            next_request: Cell::new(first_request),
            ..ConnectionState::default()
        }
    }

    /// The index of the request to send next, of `count` sent in turn: from its first on, round and round.
    pub fn take_request(&self, count: usize) -> usize {
        let index = self.next_request.get() % count;
        self.next_request.set((index + 1) % count);
        index
    }

    /// When its oldest request in flight was sent.
    pub fn oldest(&self) -> Option<Instant> {
        let front = self.sent.borrow().front().copied();
        let slots = self.slots.borrow();
        slots.iter().flatten().copied().chain(front).min()
    }

    pub fn for_each_in_flight(&self, mut each: impl FnMut(Instant)) {
        self.sent.borrow().iter().copied().for_each(&mut each);
        self.slots.borrow().iter().flatten().copied().for_each(each);
    }

    /// Forgets what is in flight, handing each send time to `each`; returns how many there were.
    pub fn drain(&self, mut each: impl FnMut(Instant)) -> usize {
        let mut count = 0;
        for sent in self.sent.borrow_mut().drain(..) {
            each(sent);
            count += 1;
        }
        for slot in self.slots.borrow_mut().iter_mut() {
            if let Some(sent) = slot.take() {
                each(sent);
                count += 1;
            }
        }
        count
    }
}

#[derive(PartialEq, Debug, Clone, Copy)]
pub enum Ended {
    /// The server closed the connection after a response, as it may.
    Closed,
    /// Reading or writing failed, or the server sent what is not HTTP.
    Failed,
}

/// A TCP connection to the SUT, or None (counted as an error, after a pause, and arrived not up) when it cannot be made.
/// A connect that does not finish within the handshake deadline is counted as such.
pub async fn connect(context: &ThreadContext, state: &ConnectionState) -> Option<TcpStream> {
    let connecting = TcpStream::connect(context.target.address);
    match tokio::time::timeout(context.handshake_timeout, connecting).await {
        Ok(Ok(stream)) => {
            let _ = stream.set_nodelay(true);
            return Some(stream);
        }
        Ok(Err(_)) => context.stats.borrow_mut().error(1),
        Err(_) => context
            .stats
            .borrow_mut()
            .failed_to_connect(CONNECT_TIMED_OUT),
    }
    tokio::time::sleep(RECONNECT_PAUSE).await;
    arrived(context, state, false).await;
    None
}

/// A connection's attempt to come up (connected, and its TLS and protocol handshakes done) ended, `up` or not. The first
/// of the phase is reported, since the phase's clock waits for every connection's (phase.rs), and the connection then
/// waits for the clock to start before it sends a request or tries again; a reconnect goes straight on.
pub async fn arrived(context: &ThreadContext, state: &ConnectionState, up: bool) {
    if !state.arrived.replace(true) {
        context.shared.arrived(up);
        context.shared.started().await;
    }
}

/// A connection's session ended: what it had in flight ends now; if it failed, each is an error (at least one).
pub fn session_ended(context: &ThreadContext, state: &ConnectionState, ended: Ended) {
    let now = Instant::now();
    let mut stats = context.stats.borrow_mut();
    let in_flight = state.drain(|sent| stats.in_flight_until(sent, now));
    if ended == Ended::Failed {
        stats.error(in_flight.max(1) as u64);
    }
}

/// How a connection's TLS handshake went, for the connection.
pub enum Secured<S> {
    Ready(S),
    /// The connection failed before TLS said anything (counted as an error, after a pause, and arrived not up): connect
    /// again.
    Retry,
    /// TLS refused: the phase fails with the reason (the first connection to find it says it).
    Fatal,
}

/// The TLS handshake on a new connection, what it negotiated noted; one not done within the handshake deadline is counted
/// as such, and the connection tries again.
pub async fn secure(
    context: &ThreadContext,
    state: &ConnectionState,
    tls: &TlsTarget,
    tcp: TcpStream,
) -> Secured<TlsStream<TcpStream>> {
    match tokio::time::timeout(context.handshake_timeout, tls.handshake(tcp)).await {
        Ok(Handshake::Ready(stream, negotiated)) => {
            context.negotiated(negotiated);
            return Secured::Ready(stream);
        }
        Ok(Handshake::Lost) => context.stats.borrow_mut().error(1),
        Ok(Handshake::Refused(reason)) => {
            context.shared.fail(reason);
            return Secured::Fatal;
        }
        Err(_) => context.stats.borrow_mut().failed_to_connect(TLS_TIMED_OUT),
    }
    tokio::time::sleep(RECONNECT_PAUSE).await;
    arrived(context, state, false).await;
    Secured::Retry
}

/// Reads what has arrived after the `filled` bytes kept from before, the buffer doubled when full up to `limit_bytes`; None
/// when the connection ended or failed, or the buffer is full at its limit.
pub async fn read_more<S: AsyncRead + Unpin>(
    stream: &mut S,
    buffer: &mut Vec<u8>,
    filled: &mut usize,
    limit_bytes: usize,
) -> Option<usize> {
    if *filled == buffer.len() {
        let grown = buffer.len().saturating_mul(2).min(limit_bytes);
        if grown <= buffer.len() {
            return None;
        }
        buffer.resize(grown, 0);
    }
    match stream.read(&mut buffer[*filled..]).await {
        Ok(0) | Err(_) => None,
        Ok(read) => Some(read),
    }
}

/// A thread's context for unit tests: one thread, a phase of a second whose clock started now, closed loop.
#[cfg(test)]
pub fn test_context(
    target: Target,
    expected_body: BodyExpectation,
    pipelining: usize,
    streams: usize,
) -> ThreadContext {
    let shared = PhaseShared::new(Duration::from_secs(1), 1);
    let start = shared.start_clock().start;
    ThreadContext {
        target: Arc::new(target),
        pipelining,
        streams,
        keep_body: crate::check::needs_body(&expected_body),
        expected_body,
        body_limit_bytes: crate::config::DEFAULT_BODY_LIMIT_BYTES,
        handshake_timeout: Duration::from_secs(1),
        stats: RefCell::new(ThreadStats::new(start)),
        shared: Arc::new(shared),
        index: 0,
        schedule: None,
        received: Cell::new(0),
        closing: Cell::new(false),
        closing_signal: Notify::new(),
    }
}
