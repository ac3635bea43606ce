//! One generator thread: its connections on a current-thread tokio runtime, in a closed loop (each response
//! sends the next request) or on a fixed schedule (open model), every response checked and timed.

use crate::check::{body_matches, needs_body};
use crate::config::{BodyExpectation, Config};
use crate::response::{parse, Parsed};
use crate::stats::{ThreadStats, WindowPart};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// What every thread of a phase shares with the main thread.
pub struct PhaseShared {
    pub start: Instant,
    pub end: Instant,
    /// Set by the main thread when dyno asks to stop (SIGTERM, SIGINT): the phase ends early.
    pub stop: AtomicBool,
    /// Responses so far, per thread: read once a second for progress and the per-second rate.
    pub responses: Vec<AtomicU64>,
}

/// How often a thread looks at the stop flag and the response timeouts between windows.
const TICK: Duration = Duration::from_millis(20);
/// How long a connection waits before connecting again after a refused connect.
const RECONNECT_PAUSE: Duration = Duration::from_millis(10);
/// What a connection reads at a time; it grows for a response larger than this.
const READ_BUFFER: usize = 64 * 1024;

/// What the connections of one thread share.
struct ThreadContext {
    address: SocketAddr,
    request: Vec<u8>,
    pipelining: usize,
    expected_body: BodyExpectation,
    keep_body: bool,
    stats: RefCell<ThreadStats>,
    shared: std::sync::Arc<PhaseShared>,
    index: usize,
    /// Open model: the intended send times not yet sent, and the signal that there are some.
    schedule: Option<(RefCell<VecDeque<Instant>>, Notify)>,
}

/// What the watchdog sees of a connection: when its oldest request in flight was meant to be sent.
#[derive(Default)]
struct ConnectionState {
    oldest: Cell<Option<Instant>>,
    in_flight: Cell<usize>,
}

/// Runs one thread's share of a phase and returns its counts; windows go to `windows` as they close.
pub fn run_thread(
    config: &Config,
    index: usize,
    shared: std::sync::Arc<PhaseShared>,
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
    let context = Rc::new(ThreadContext {
        address: config.address,
        request: config.request.as_bytes().to_vec(),
        pipelining: config.pipelining,
        expected_body: config.expect_body.clone(),
        keep_body: needs_body(&config.expect_body),
        stats: RefCell::new(ThreadStats::new()),
        shared,
        index,
        schedule: rate.map(|_| (RefCell::new(VecDeque::new()), Notify::new())),
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
        let scheduler =
            rate.map(|per_sec| tokio::task::spawn_local(schedule(context.clone(), per_sec)));
        let shared = &context.shared;
        let mut window_index = 0usize;
        loop {
            let now = Instant::now();
            let window_end = shared.start + window * (window_index as u32 + 1);
            let stopping = shared.stop.load(Ordering::Relaxed) || now >= shared.end;
            if stopping || now >= window_end {
                let (histogram, requests, errors) = context.stats.borrow_mut().take_window();
                let _ = windows.send(WindowPart {
                    index: window_index,
                    closed_at: now,
                    histogram,
                    requests,
                    errors,
                });
                window_index += 1;
            }
            if stopping {
                break;
            }
            // A request past the timeout ends its connection: counted, and the connection is opened again.
            for (state, task) in states.iter().zip(tasks.iter_mut()) {
                if state
                    .oldest
                    .get()
                    .is_some_and(|oldest| now.duration_since(oldest) > timeout)
                {
                    task.abort();
                    context.stats.borrow_mut().timeouts += state.in_flight.get() as u64;
                    state.oldest.set(None);
                    state.in_flight.set(0);
                    *task = start_connection(state);
                }
            }
            let next = (shared.start + window * (window_index as u32 + 1))
                .min(shared.end)
                .min(now + TICK);
            tokio::time::sleep_until(next.into()).await;
        }
        for task in &tasks {
            task.abort();
        }
        if let Some(task) = scheduler {
            task.abort();
        }
    });
    // Every task ends with the LocalSet and the runtime: the counts are this thread's alone then.
    drop(local);
    drop(runtime);
    Rc::try_unwrap(context)
        .ok()
        .expect("no task holds the context any more")
        .stats
        .into_inner()
}

/// Open model: queues each intended send time of this thread's share of the rate as it comes due. What the
/// generator itself lags behind its schedule is measured here (a request waiting for a free connection is
/// the server's doing and shows in its latency, which runs from the intended time).
async fn schedule(context: Rc<ThreadContext>, per_sec: f64) {
    let Some((queue, ready)) = &context.schedule else {
        return;
    };
    let start = context.shared.start;
    let interval = Duration::from_secs_f64(1.0 / per_sec);
    let mut next = 0u32;
    loop {
        let now = Instant::now();
        let mut due = start + interval * next;
        while due <= now && due < context.shared.end {
            queue.borrow_mut().push_back(due);
            let mut stats = context.stats.borrow_mut();
            stats.sent += 1;
            stats.max_send_lag = stats.max_send_lag.max(now - due);
            drop(stats);
            next += 1;
            due = start + interval * next;
        }
        ready.notify_waiters();
        if due >= context.shared.end {
            return;
        }
        tokio::time::sleep_until(due.into()).await;
    }
}

/// One connection, opened again whenever the server closes it or it fails, until the thread stops it.
async fn connection(context: Rc<ThreadContext>, state: Rc<ConnectionState>) {
    let mut buffer = vec![0u8; READ_BUFFER];
    let mut scratch = Vec::new();
    let batch: Vec<u8> = context.request.repeat(context.pipelining);
    loop {
        let mut stream = match TcpStream::connect(context.address).await {
            Ok(stream) => stream,
            Err(_) => {
                context.stats.borrow_mut().error(1);
                tokio::time::sleep(RECONNECT_PAUSE).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let mut sent: VecDeque<Instant> = VecDeque::with_capacity(context.pipelining);
        let outcome = match &context.schedule {
            None => {
                closed_loop(
                    &context,
                    &state,
                    &mut stream,
                    &mut sent,
                    &mut buffer,
                    &mut scratch,
                    &batch,
                )
                .await
            }
            Some((queue, ready)) => {
                open_loop(
                    &context,
                    &state,
                    &mut stream,
                    &mut sent,
                    &mut buffer,
                    &mut scratch,
                    queue,
                    ready,
                )
                .await
            }
        };
        // Requests in flight on a connection that failed got no answer: each is an error.
        if outcome == Ended::Failed {
            context.stats.borrow_mut().error(sent.len().max(1) as u64);
        }
        state.oldest.set(None);
        state.in_flight.set(0);
    }
}

#[derive(PartialEq)]
enum Ended {
    /// The server closed the connection after a response, as it may.
    Closed,
    /// Reading or writing failed, or the server sent what is not HTTP.
    Failed,
}

/// Keeps `pipelining` requests in flight: every response sends the next request, a read's worth at once.
#[allow(clippy::too_many_arguments)]
async fn closed_loop(
    context: &ThreadContext,
    state: &ConnectionState,
    stream: &mut TcpStream,
    sent: &mut VecDeque<Instant>,
    buffer: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
    batch: &[u8],
) -> Ended {
    let request_length = context.request.len();
    if stream.write_all(batch).await.is_err() {
        return Ended::Failed;
    }
    let now = Instant::now();
    sent.extend(std::iter::repeat_n(now, context.pipelining));
    track(state, sent);
    let mut filled = 0;
    loop {
        let Some(read) = read_more(stream, buffer, &mut filled).await else {
            return Ended::Failed;
        };
        let now = Instant::now();
        let (completed, ended) =
            take_responses(context, buffer, &mut filled, read, scratch, sent, now);
        if let Some(ended) = ended {
            return ended;
        }
        if completed > 0 {
            if stream
                .write_all(&batch[..completed * request_length])
                .await
                .is_err()
            {
                return Ended::Failed;
            }
            sent.extend(std::iter::repeat_n(now, completed));
        }
        track(state, sent);
    }
}

/// Sends each queued intended time as soon as this connection has room (at most `pipelining` in flight) and
/// times its response from the intended time, so a stalled server shows in the latency.
#[allow(clippy::too_many_arguments)]
async fn open_loop(
    context: &ThreadContext,
    state: &ConnectionState,
    stream: &mut TcpStream,
    sent: &mut VecDeque<Instant>,
    buffer: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
    queue: &RefCell<VecDeque<Instant>>,
    ready: &Notify,
) -> Ended {
    let mut filled = 0;
    loop {
        while sent.len() < context.pipelining {
            let Some(intended) = queue.borrow_mut().pop_front() else {
                break;
            };
            if stream.write_all(&context.request).await.is_err() {
                return Ended::Failed;
            }
            sent.push_back(intended);
        }
        track(state, sent);
        let read = if sent.is_empty() {
            ready.notified().await;
            continue;
        } else if sent.len() < context.pipelining {
            tokio::select! {
                read = read_more(stream, buffer, &mut filled) => read,
                _ = ready.notified() => continue,
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
            sent,
            Instant::now(),
        );
        if let Some(ended) = ended {
            return ended;
        }
    }
}

/// Reads what has arrived after the `filled` bytes kept from before; None when the connection ended or failed.
async fn read_more(
    stream: &mut TcpStream,
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
                stats.response(
                    now.saturating_duration_since(sent_at),
                    response.status,
                    body_ok,
                );
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
    context.shared.responses[context.index].fetch_add(completed as u64, Ordering::Relaxed);
    // Keep what is left of a partial response at the front.
    buffer.copy_within(start..*filled, 0);
    *filled -= start;
    (completed, ended)
}

fn track(state: &ConnectionState, sent: &VecDeque<Instant>) {
    state.oldest.set(sent.front().copied());
    state.in_flight.set(sent.len());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::latency_us;
    use std::collections::BTreeMap;
    use std::sync::Arc;

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
            let start = Instant::now();
            let context = ThreadContext {
                address: "127.0.0.1:1".parse().unwrap(),
                request: b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
                pipelining: sent.len(),
                keep_body: needs_body(&expected_body),
                expected_body,
                stats: RefCell::new(ThreadStats::new()),
                shared: Arc::new(PhaseShared {
                    start,
                    end: start + Duration::from_secs(1),
                    stop: AtomicBool::new(false),
                    responses: vec![AtomicU64::new(0)],
                }),
                index: 0,
                schedule: None,
            };
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
