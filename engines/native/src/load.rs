//! One generator thread: its connections on a current-thread tokio runtime, in a closed loop (each response
//! sends the next request) or on a fixed schedule (open model), every response checked and timed. What is
//! the same for every protocol lives here (connecting, the schedule, the windows and the time in flight, timeouts);
//! HTTP/1.1 (in cleartext or over TLS) too. HTTP/2 and WebSocket have modules of their own.

use crate::check::{body_matches, needs_body};
use crate::config::{BodyExpectation, Config, Protocol};
use crate::http2::H2Request;
use crate::response::{parse, Parsed};
use crate::stats::{ThreadStats, WindowPart};
use crate::tls::{Handshake, TlsTarget};
use crate::websocket::WsTarget;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{Notify, Semaphore};
use tokio::task::JoinHandle;

/// What every thread of a phase shares with the main thread.
pub struct PhaseShared {
    pub start: Instant,
    pub end: Instant,
    /// Set by the main thread when dyno asks to stop (SIGTERM, SIGINT): the phase ends early.
    pub stop: AtomicBool,
    /// Responses so far, per thread: read once a second for progress and the per-second rate.
    pub responses: Vec<AtomicU64>,
    /// Why the run cannot go on, said by the first connection that found it (a certificate refused, HTTP/2 not
    /// negotiated, a WebSocket handshake refused): the phase stops at once and fails with it.
    pub failure: Mutex<Option<String>>,
}

impl PhaseShared {
    pub fn new(start: Instant, duration: Duration, threads: usize) -> Self {
        PhaseShared {
            start,
            end: start + duration,
            stop: AtomicBool::new(false),
            responses: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            failure: Mutex::new(None),
        }
    }

    /// The run cannot go on: keeps the first reason given and stops every thread.
    pub fn fail(&self, reason: String) {
        let mut failure = self
            .failure
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        failure.get_or_insert(reason);
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

/// What the connections of every thread and phase send, resolved once from the config.
pub struct Target {
    pub protocol: Protocol,
    pub address: SocketAddr,
    /// tls and h2: the TLS 1.3 client, the name to verify, what to offer by ALPN.
    pub tls: Option<TlsTarget>,
    /// http1 and tls: the request's bytes.
    pub request: Vec<u8>,
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
            request: config.request.as_deref().unwrap_or("").as_bytes().to_vec(),
            http2: config
                .http
                .as_ref()
                .map(|http| H2Request::new(http, config.protocol))
                .transpose()?,
            websocket: config.websocket.as_ref().map(WsTarget::new).transpose()?,
        })
    }
}

/// How often a thread looks at the stop flag and the response timeouts between windows.
const TICK: Duration = Duration::from_millis(20);
/// How long a connection waits before connecting again after a refused connect.
pub const RECONNECT_PAUSE: Duration = Duration::from_millis(10);
/// What a connection reads at a time; it grows for a response larger than this.
pub const READ_BUFFER: usize = 64 * 1024;
/// ws: how long the connections of a phase that ended have to close (code 1000) before they are dropped.
const CLOSE_GRACE: Duration = Duration::from_millis(250);

/// What the connections of one thread share.
pub struct ThreadContext {
    pub target: Arc<Target>,
    pub pipelining: usize,
    /// h2, h2c: streams per connection; ws: messages in flight per connection.
    pub streams: usize,
    pub expected_body: BodyExpectation,
    pub keep_body: bool,
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

    /// What a connection of this thread spoke once established.
    pub fn negotiated(&self, protocol: &'static str) {
        self.stats.borrow_mut().negotiated.insert(protocol);
    }
}

/// Open model: the intended send times released and not yet sent.
pub struct Schedule {
    pub queue: RefCell<VecDeque<Instant>>,
    /// HTTP/1.1: wakes the connections waiting for a request to send.
    pub ready: Notify,
    /// HTTP/2: one permit per queued time, so that each wakes one waiting stream (a Notify would wake them all).
    pub permits: Semaphore,
    interval: Duration,
    next: Cell<u32>,
}

/// What a connection has in flight, for the watchdog (timeouts) and the windows (time in flight).
#[derive(Default)]
pub struct ConnectionState {
    /// HTTP/1.1 and WebSocket: when each request in flight was sent (or meant to be sent, in the open model), in the
    /// order the answers come.
    pub sent: RefCell<VecDeque<Instant>>,
    /// HTTP/2: the same, one slot per stream.
    pub slots: RefCell<Vec<Option<Instant>>>,
}

impl ConnectionState {
    /// When its oldest request in flight was sent.
    fn oldest(&self) -> Option<Instant> {
        let front = self.sent.borrow().front().copied();
        let slots = self.slots.borrow();
        slots.iter().flatten().copied().chain(front).min()
    }

    fn for_each_in_flight(&self, mut each: impl FnMut(Instant)) {
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

/// Runs one thread's share of a phase and returns its counts; windows go to `windows` as they close.
pub fn run_thread(
    config: &Config,
    target: Arc<Target>,
    index: usize,
    shared: Arc<PhaseShared>,
    windows: Sender<WindowPart>,
) -> ThreadStats {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let local = tokio::task::LocalSet::new();
    let rate = config
        .rate_per_sec
        .map(|total| total / config.threads as f64);
    let protocol = target.protocol;
    let context = Rc::new(ThreadContext {
        target,
        pipelining: config.pipelining,
        streams: config.streams(),
        expected_body: config.expect_body.clone(),
        keep_body: needs_body(&config.expect_body),
        stats: RefCell::new(ThreadStats::new(shared.start)),
        shared,
        index,
        schedule: rate.map(|per_sec| Schedule {
            queue: RefCell::new(VecDeque::new()),
            ready: Notify::new(),
            permits: Semaphore::new(0),
            interval: Duration::from_secs_f64(1.0 / per_sec),
            next: Cell::new(0),
        }),
        received: Cell::new(0),
        closing: Cell::new(false),
        closing_signal: Notify::new(),
    });
    let connections = config.connections_of(index);
    let (window, timeout) = (config.window(), config.timeout());
    let thread_context = context.clone();
    local.block_on(&runtime, async move {
        let context = thread_context;
        let states: Vec<Rc<ConnectionState>> = (0..connections)
            .map(|_| Rc::new(ConnectionState::default()))
            .collect();
        let start_connection = |state: &Rc<ConnectionState>| -> JoinHandle<()> {
            tokio::task::spawn_local(connection(context.clone(), state.clone()))
        };
        let mut tasks: Vec<JoinHandle<()>> = states.iter().map(start_connection).collect();
        let scheduler = context
            .schedule
            .is_some()
            .then(|| tokio::task::spawn_local(schedule(context.clone())));
        let shared = &context.shared;
        let mut window_index = 0usize;
        loop {
            let now = Instant::now();
            let window_end = shared.start + window * (window_index as u32 + 1);
            let stopping = shared.stop.load(Ordering::Relaxed) || now >= shared.end;
            if stopping || now >= window_end {
                let _ = windows.send(close_window(&context, &states, window_index, now));
                window_index += 1;
            }
            if stopping {
                break;
            }
            // A request past the timeout ends its connection: counted, and the connection is opened again.
            for (state, task) in states.iter().zip(tasks.iter_mut()) {
                if state
                    .oldest()
                    .is_some_and(|oldest| now.duration_since(oldest) > timeout)
                {
                    task.abort();
                    let mut stats = context.stats.borrow_mut();
                    let timed_out = state.drain(|sent| stats.in_flight_until(sent, now));
                    stats.timeouts += timed_out as u64;
                    drop(stats);
                    *task = start_connection(state);
                }
            }
            let next = (shared.start + window * (window_index as u32 + 1))
                .min(shared.end)
                .min(now + TICK);
            tokio::time::sleep_until(next.into()).await;
        }
        if let Some(task) = scheduler {
            task.abort();
        }
        // WebSocket connections close with code 1000, each within the grace; what they receive meanwhile is not counted.
        if protocol == Protocol::Ws && context.shared.failure().is_none() {
            context.closing.set(true);
            context.closing_signal.notify_waiters();
            let deadline = tokio::time::Instant::now() + CLOSE_GRACE;
            for task in tasks.iter_mut() {
                let _ = tokio::time::timeout_at(deadline, task).await;
            }
        }
        for task in &tasks {
            task.abort();
        }
    });
    // Every task ends with the LocalSet and the runtime: the counts are this thread's alone then.
    drop(local);
    drop(runtime);
    let context = Rc::try_unwrap(context)
        .ok()
        .expect("no task holds the context any more");
    let mut stats = context.stats.into_inner();
    stats.bytes += context.received.get();
    stats
}

/// Closes window `index` at `now`: every request still in flight (the open model's queue included, everything due by
/// now released into it first) counts its time in flight up to now to this window.
fn close_window(
    context: &ThreadContext,
    states: &[Rc<ConnectionState>],
    index: usize,
    now: Instant,
) -> WindowPart {
    if context.schedule.is_some() {
        release_due(context, now);
    }
    let mut stats = context.stats.borrow_mut();
    for state in states {
        state.for_each_in_flight(|sent| stats.in_flight_until(sent, now));
    }
    if let Some(schedule) = &context.schedule {
        for &intended in schedule.queue.borrow().iter() {
            stats.in_flight_until(intended, now);
        }
    }
    stats.take_window(index, now)
}

/// Open model: queues each intended send time of this thread's share of the rate as it comes due. What the
/// generator itself lags behind its schedule is measured here (a request waiting for a free connection is
/// the server's doing and shows in its latency, which runs from the intended time).
async fn schedule(context: Rc<ThreadContext>) {
    while let Some(due) = release_due(&context, Instant::now()) {
        tokio::time::sleep_until(due.into()).await;
    }
}

/// Queues every intended send time due by `now` and wakes the connections; returns when the next one is due, or
/// None once the phase's schedule is all released.
fn release_due(context: &ThreadContext, now: Instant) -> Option<Instant> {
    let schedule = context.schedule.as_ref()?;
    let (start, end) = (context.shared.start, context.shared.end);
    let mut next = schedule.next.get();
    let mut due = start + schedule.interval * next;
    let mut released = 0;
    while due <= now && due < end {
        schedule.queue.borrow_mut().push_back(due);
        let mut stats = context.stats.borrow_mut();
        stats.sent += 1;
        stats.max_send_lag = stats.max_send_lag.max(now - due);
        drop(stats);
        released += 1;
        next += 1;
        due = start + schedule.interval * next;
    }
    schedule.next.set(next);
    if released > 0 {
        schedule.ready.notify_waiters();
        if context.target.protocol.is_http2() {
            schedule.permits.add_permits(released);
        }
    }
    (due < end).then_some(due)
}

/// One connection of the thread's protocol, opened again whenever the server closes it or it fails, until the thread
/// stops it (or the run cannot go on).
async fn connection(context: Rc<ThreadContext>, state: Rc<ConnectionState>) {
    match context.target.protocol {
        Protocol::Http1 | Protocol::Tls => http1_connection(context, state).await,
        Protocol::H2 | Protocol::H2c => crate::http2::connection(context, state).await,
        Protocol::Ws => crate::websocket::connection(context, state).await,
    }
}

/// A TCP connection to the SUT, or None (counted as an error, after a pause) when it cannot be made.
pub async fn connect(context: &ThreadContext) -> Option<TcpStream> {
    match TcpStream::connect(context.target.address).await {
        Ok(stream) => {
            let _ = stream.set_nodelay(true);
            Some(stream)
        }
        Err(_) => {
            context.stats.borrow_mut().error(1);
            tokio::time::sleep(RECONNECT_PAUSE).await;
            None
        }
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

/// HTTP/1.1, in cleartext or over TLS.
async fn http1_connection(context: Rc<ThreadContext>, state: Rc<ConnectionState>) {
    let mut buffer = vec![0u8; READ_BUFFER];
    let mut scratch = Vec::new();
    let batch: Vec<u8> = context.target.request.repeat(context.pipelining);
    loop {
        let Some(stream) = connect(&context).await else {
            continue;
        };
        let ended = match &context.target.tls {
            None => {
                context.negotiated("http/1.1");
                http1_session(&context, &state, stream, &mut buffer, &mut scratch, &batch).await
            }
            Some(tls) => match tls.handshake(&context, stream).await {
                Handshake::Ready(stream) => {
                    http1_session(&context, &state, stream, &mut buffer, &mut scratch, &batch).await
                }
                Handshake::Retry => continue,
                Handshake::Fatal => return,
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

#[derive(PartialEq, Debug, Clone, Copy)]
pub enum Ended {
    /// The server closed the connection after a response, as it may.
    Closed,
    /// Reading or writing failed, or the server sent what is not HTTP.
    Failed,
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
    let request_length = context.target.request.len();
    if stream.write_all(batch).await.is_err() {
        return Ended::Failed;
    }
    let now = Instant::now();
    state
        .sent
        .borrow_mut()
        .extend(std::iter::repeat_n(now, context.pipelining));
    let mut filled = 0;
    loop {
        let Some(read) = read_more(stream, buffer, &mut filled).await else {
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
                .write_all(&batch[..completed * request_length])
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
            if stream.write_all(&context.target.request).await.is_err() {
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
                read = read_more(stream, buffer, &mut filled) => read,
                _ = schedule.ready.notified() => continue,
            }
        } else {
            read_more(stream, buffer, &mut filled).await
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

/// Reads what has arrived after the `filled` bytes kept from before; None when the connection ended or failed.
pub async fn read_more<S: AsyncRead + Unpin>(
    stream: &mut S,
    buffer: &mut Vec<u8>,
    filled: &mut usize,
) -> Option<usize> {
    if *filled == buffer.len() {
        buffer.resize(buffer.len() * 2, 0);
    }
    match stream.read(&mut buffer[*filled..]).await {
        Ok(0) | Err(_) => None,
        Ok(read) => Some(read),
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
        match parse(&buffer[start..*filled], context.keep_body) {
            Parsed::Partial => break,
            Parsed::Invalid => {
                ended = Some(Ended::Failed);
                break;
            }
            Parsed::Complete(response) => {
                let Some(sent_at) = sent.pop_front() else {
                    // A response nobody asked for.
                    ended = Some(Ended::Failed);
                    break;
                };
                let body_ok = !context.keep_body
                    || body_matches(
                        &context.expected_body,
                        response.body.bytes(&buffer[start..*filled], scratch),
                    );
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

/// A thread's context for unit tests: one thread, a phase of a second starting now, closed loop.
#[cfg(test)]
pub fn test_context(
    target: Target,
    expected_body: BodyExpectation,
    pipelining: usize,
    streams: usize,
) -> ThreadContext {
    let start = Instant::now();
    ThreadContext {
        target: Arc::new(target),
        pipelining,
        streams,
        keep_body: needs_body(&expected_body),
        expected_body,
        stats: RefCell::new(ThreadStats::new(start)),
        shared: Arc::new(PhaseShared::new(start, Duration::from_secs(1), 1)),
        index: 0,
        schedule: None,
        received: Cell::new(0),
        closing: Cell::new(false),
        closing_signal: Notify::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::latency_us;
    use std::collections::BTreeMap;

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
                request: b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
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
    }
}
