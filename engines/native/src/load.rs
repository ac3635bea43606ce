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
pub fn run_thread(config: &Config, index: usize, shared: std::sync::Arc<PhaseShared>, windows: Sender<WindowPart>) -> ThreadStats {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime");
    let local = tokio::task::LocalSet::new();
    let rate = config.rate_per_sec.map(|total| total / config.threads as f64);
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
        let states: Vec<Rc<ConnectionState>> = (0..connections).map(|_| Rc::new(ConnectionState::default())).collect();
        let start_connection = |state: &Rc<ConnectionState>| -> JoinHandle<()> {
            tokio::task::spawn_local(connection(context.clone(), state.clone()))
        };
        let mut tasks: Vec<JoinHandle<()>> = states.iter().map(start_connection).collect();
        let scheduler = rate.map(|per_sec| tokio::task::spawn_local(schedule(context.clone(), per_sec)));
        let shared = &context.shared;
        let mut window_index = 0usize;
        loop {
            let now = Instant::now();
            let window_end = shared.start + window * (window_index as u32 + 1);
            let stopping = shared.stop.load(Ordering::Relaxed) || now >= shared.end;
            if stopping || now >= window_end {
                let (histogram, requests, errors) = context.stats.borrow_mut().take_window();
                let _ = windows.send(WindowPart { index: window_index, closed_at: now, histogram, requests, errors });
                window_index += 1;
            }
            if stopping {
                break;
            }
            // A request past the timeout ends its connection: counted, and the connection is opened again.
            for (state, task) in states.iter().zip(tasks.iter_mut()) {
                if state.oldest.get().is_some_and(|oldest| now.duration_since(oldest) > timeout) {
                    task.abort();
                    context.stats.borrow_mut().timeouts += state.in_flight.get() as u64;
                    state.oldest.set(None);
                    state.in_flight.set(0);
                    *task = start_connection(state);
                }
            }
            let next = (shared.start + window * (window_index as u32 + 1)).min(shared.end).min(now + TICK);
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
    Rc::try_unwrap(context).ok().expect("no task holds the context any more").stats.into_inner()
}

/// Open model: queues each intended send time of this thread's share of the rate as it comes due. What the
/// generator itself lags behind its schedule is measured here (a request waiting for a free connection is
/// the server's doing and shows in its latency, which runs from the intended time).
async fn schedule(context: Rc<ThreadContext>, per_sec: f64) {
    let Some((queue, ready)) = &context.schedule else { return };
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
            None => closed_loop(&context, &state, &mut stream, &mut sent, &mut buffer, &mut scratch, &batch).await,
            Some((queue, ready)) => open_loop(&context, &state, &mut stream, &mut sent, &mut buffer, &mut scratch, queue, ready).await,
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
    context: &ThreadContext, state: &ConnectionState, stream: &mut TcpStream, sent: &mut VecDeque<Instant>,
    buffer: &mut Vec<u8>, scratch: &mut Vec<u8>, batch: &[u8],
) -> Ended {
    let request_length = context.request.len();
    if stream.write_all(batch).await.is_err() {
        return Ended::Failed;
    }
    let now = Instant::now();
    sent.extend(std::iter::repeat(now).take(context.pipelining));
    track(state, sent);
    let mut filled = 0;
    loop {
        let Some(read) = read_more(stream, buffer, &mut filled).await else { return Ended::Failed };
        let now = Instant::now();
        let (completed, ended) = take_responses(context, buffer, &mut filled, read, scratch, sent, now);
        if let Some(ended) = ended {
            return ended;
        }
        if completed > 0 {
            if stream.write_all(&batch[..completed * request_length]).await.is_err() {
                return Ended::Failed;
            }
            sent.extend(std::iter::repeat(now).take(completed));
        }
        track(state, sent);
    }
}

/// Sends each queued intended time as soon as this connection has room (at most `pipelining` in flight) and
/// times its response from the intended time, so a stalled server shows in the latency.
#[allow(clippy::too_many_arguments)]
async fn open_loop(
    context: &ThreadContext, state: &ConnectionState, stream: &mut TcpStream, sent: &mut VecDeque<Instant>,
    buffer: &mut Vec<u8>, scratch: &mut Vec<u8>, queue: &RefCell<VecDeque<Instant>>, ready: &Notify,
) -> Ended {
    let mut filled = 0;
    loop {
        while sent.len() < context.pipelining {
            let Some(intended) = queue.borrow_mut().pop_front() else { break };
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
        let Some(read) = read else { return Ended::Failed };
        let (_, ended) = take_responses(context, buffer, &mut filled, read, scratch, sent, Instant::now());
        if let Some(ended) = ended {
            return ended;
        }
    }
}

/// Reads what has arrived after the `filled` bytes kept from before; None when the connection ended or failed.
async fn read_more(stream: &mut TcpStream, buffer: &mut Vec<u8>, filled: &mut usize) -> Option<usize> {
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
    context: &ThreadContext, buffer: &mut [u8], filled: &mut usize, read: usize, scratch: &mut Vec<u8>,
    sent: &mut VecDeque<Instant>, now: Instant,
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
                    || body_matches(&context.expected_body, response.body.bytes(&buffer[start..*filled], scratch));
                stats.response(now.saturating_duration_since(sent_at), response.status, body_ok);
                start += response.length;
                completed += 1;
                if response.closes {
                    ended = Some(if sent.is_empty() { Ended::Closed } else { Ended::Failed });
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
