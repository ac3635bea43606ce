//! One generator thread: its connections on a current-thread tokio runtime, in a closed loop (each response
//! sends the next request) or on a fixed schedule (open model), every response checked and timed. Here is the
//! thread's loop, the same for every protocol: the connections started (each its protocol's), the wait for the
//! phase's clock, which starts once every connection of every thread is up (phase.rs), then, from its start, the open
//! model's schedule released, the windows closed with the time in flight, the response timeouts, the end of the phase.

use crate::alarm::Alarm;
use crate::check::needs_body;
use crate::config::{Config, Protocol};
use crate::connection::{ConnectionState, Schedule, ThreadContext};
use crate::phase::{Clock, PhaseShared};
use crate::stats::{latency_us, ThreadStats, WindowPart};
use crate::target::Target;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{Notify, Semaphore};
use tokio::task::JoinHandle;

/// How often a thread looks at the stop flag and the response timeouts between windows.
const TICK: Duration = Duration::from_millis(20);
/// ws: how long the connections of a phase that ended have to close (code 1000) before they are dropped.
const CLOSE_GRACE: Duration = Duration::from_millis(250);

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
    let protocol = target.protocol;
    let context = Rc::new(ThreadContext {
        target,
        pipelining: config.pipelining,
        streams: config.streams(),
        expected_body: config.expect_body.clone(),
        keep_body: needs_body(&config.expect_body),
        body_limit_bytes: config.body_limit_bytes(),
        handshake_timeout: config.handshake_timeout(),
        // Its first window begins when the phase's clock starts, set then.
        stats: RefCell::new(ThreadStats::new(Instant::now())),
        shared,
        index,
        // Each thread sends its share of the rate; `Config::problem` made sure a Duration holds its interval.
        schedule: config.schedule_interval().map(|interval| Schedule {
            queue: RefCell::new(VecDeque::new()),
            ready: Notify::new(),
            permits: Semaphore::new(0),
            interval,
            next: Cell::new(0),
        }),
        received: Cell::new(0),
        closing: Cell::new(false),
        closing_signal: Notify::new(),
    });
    let connections = config.connections_of(index);
    let (threads, total_connections) = (config.threads.max(1), config.connections.max(1));
    let (window, timeout) = (config.window(), config.timeout());
    let thread_context = context.clone();
    local.block_on(&runtime, async move {
        let context = thread_context;
        // With requests in turn, each connection of the run starts at its own share of them: this thread's connection
        // `each` is the run's `each × threads + index`, which numbers them all once however they are split.
        let in_turn = context.target.requests.len();
        let states: Vec<Rc<ConnectionState>> = (0..connections)
            .map(|each| {
                let number = each * threads + index;
                Rc::new(ConnectionState::starting_at(
                    number * in_turn / total_connections,
                ))
            })
            .collect();
        let start_connection = |state: &Rc<ConnectionState>| -> JoinHandle<()> {
            tokio::task::spawn_local(connection(context.clone(), state.clone()))
        };
        let mut tasks: Vec<JoinHandle<()>> = states.iter().map(start_connection).collect();
        // Nothing is sent before the clock starts: until then no request is in flight, for the windows or the watchdog.
        let clock = context.shared.started().await;
        context.stats.borrow_mut().window_started = clock.start;
        let scheduler = context
            .schedule
            .is_some()
            .then(|| tokio::task::spawn_local(schedule(context.clone(), clock)));
        let shared = &context.shared;
        let mut window_index = 0usize;
        loop {
            let now = Instant::now();
            let window_end = clock.start + window * (window_index as u32 + 1);
            let stopping = shared.stop.load(Ordering::Relaxed) || now >= clock.end;
            if stopping || now >= window_end {
                let _ = windows.send(close_window(&context, clock, &states, window_index, now));
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
            let next = (clock.start + window * (window_index as u32 + 1))
                .min(clock.end)
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
    clock: Clock,
    states: &[Rc<ConnectionState>],
    index: usize,
    now: Instant,
) -> WindowPart {
    if context.schedule.is_some() {
        release_due(context, clock, now);
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

/// Open model: queues each intended send time of this thread's share of the rate as it comes due, woken by the
/// alarm thread (alarm.rs: tokio's timer would wake a millisecond late). What the generator itself lags behind its
/// schedule is measured here (a request waiting for a free connection is the server's doing and shows in its
/// latency, which runs from the intended time).
async fn schedule(context: Rc<ThreadContext>, clock: Clock) {
    let Some(schedule) = &context.schedule else {
        return;
    };
    let alarm = Alarm::start(
        clock.start,
        schedule.interval,
        clock.end,
        schedule.next.get(),
    );
    while release_due(&context, clock, Instant::now()).is_some() {
        alarm.rung().await;
    }
}

/// Queues every intended send time due by `now` and wakes the connections; returns when the next one is due, or
/// None once the phase's schedule is all released.
fn release_due(context: &ThreadContext, clock: Clock, now: Instant) -> Option<Instant> {
    let schedule = context.schedule.as_ref()?;
    let Clock { start, end } = clock;
    let total = sends_in(end - start, schedule.interval);
    let mut next = schedule.next.get();
    let mut due = start + schedule.interval * next;
    let mut released = 0;
    while due <= now && next < total {
        schedule.queue.borrow_mut().push_back(due);
        let mut stats = context.stats.borrow_mut();
        stats.sent += 1;
        let lag = now - due;
        stats.send_lag.saturating_record(latency_us(lag));
        stats.max_send_lag = stats.max_send_lag.max(lag);
        drop(stats);
        released += 1;
        next += 1;
        due = start + schedule.interval * next;
    }
    schedule.next.set(next);
    if released > 0 {
        if context.target.protocol.is_http2() {
            schedule.permits.add_permits(released);
        } else {
            // One idle connection per send: waking every idle connection for each send cost more than the sends themselves
            // (100 connections at 2,000 req/s: 99 polls for nothing per request). The one idle longest goes first, so every
            // connection keeps being used and none idles into the server's keep-alive timeout.
            for _ in 0..released {
                schedule.ready.notify_one();
            }
        }
    }
    (next < total).then_some(due)
}

/// How many sends a phase of `duration` holds at one every `interval`: the rate × the duration, rounded. The interval is whole
/// nanoseconds, a little short of 1 ÷ rate (3,333,333 ns at 300/s), so "every time before the end" would give one send more than
/// the rate asks for (601 in 2 s at 300/s), whose answer lands at the phase's very end or not at all.
fn sends_in(duration: Duration, interval: Duration) -> u32 {
    (duration.as_secs_f64() / interval.as_secs_f64()).round() as u32
}

/// One connection of the thread's protocol, opened again whenever the server closes it or it fails, until the thread
/// stops it (or the run cannot go on).
async fn connection(context: Rc<ThreadContext>, state: Rc<ConnectionState>) {
    match context.target.protocol {
        Protocol::Http1 | Protocol::Tls => crate::http1::connection(context, state).await,
        Protocol::H2 | Protocol::H2c => crate::http2::connection(context, state).await,
        Protocol::Ws => crate::websocket::connection(context, state).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::BodyExpectation;
    use crate::connection::test_context;

    /// A thread's context on the open model, one send every millisecond, over HTTP/1.1.
    fn scheduled_context() -> Rc<ThreadContext> {
        let target = Target {
            protocol: Protocol::Http1,
            address: "127.0.0.1:1".parse().unwrap(),
            tls: None,
            requests: vec![b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec()],
            http2: None,
            websocket: None,
        };
        let mut context = test_context(target, BodyExpectation::None, 1, 1);
        context.schedule = Some(Schedule {
            queue: RefCell::new(VecDeque::new()),
            ready: Notify::new(),
            permits: Semaphore::new(0),
            interval: Duration::from_millis(1),
            next: Cell::new(0),
        });
        Rc::new(context)
    }

    #[tokio::test(flavor = "current_thread")]
    async fn each_send_released_wakes_one_idle_connection_and_the_others_stay_asleep() {
        let local = tokio::task::LocalSet::new();
        local
            .run_until(async {
                let context = scheduled_context();
                let woken = Rc::new(Cell::new(0));
                let idle: Vec<JoinHandle<()>> = (0..10)
                    .map(|_| {
                        let (context, woken) = (context.clone(), woken.clone());
                        tokio::task::spawn_local(async move {
                            let schedule = context.schedule.as_ref().unwrap();
                            schedule.ready.notified().await;
                            woken.set(woken.get() + 1);
                        })
                    })
                    .collect();
                let settle = || async {
                    for _ in 0..20 {
                        tokio::task::yield_now().await;
                    }
                };
                settle().await;
                assert_eq!(woken.get(), 0, "nothing released, nobody woken");
                let start = Instant::now();
                let clock = Clock {
                    start,
                    end: start + Duration::from_secs(1),
                };
                // Due at 0, 1 and 2 ms: three sends, released in one go, each with its lag.
                let next = release_due(&context, clock, start + Duration::from_micros(2500));
                assert_eq!(next, Some(start + Duration::from_millis(3)));
                settle().await;
                assert_eq!(woken.get(), 3, "one idle connection per send");
                let schedule = context.schedule.as_ref().unwrap();
                assert_eq!(schedule.queue.borrow().len(), 3);
                let stats = context.stats.borrow();
                assert_eq!((stats.sent, stats.send_lag.len()), (3, 3));
                assert_eq!(stats.max_send_lag, Duration::from_micros(2500));
                drop(stats);
                for task in idle {
                    task.abort();
                }
            })
            .await;
    }

    #[test]
    fn a_phase_holds_the_rate_times_its_duration_in_sends() {
        let every = |per_sec: f64| Duration::from_secs_f64(1.0 / per_sec);
        assert_eq!(sends_in(Duration::from_secs(2), every(300.0)), 600);
        assert_eq!(sends_in(Duration::from_millis(1400), every(7.0)), 10);
        assert_eq!(sends_in(Duration::from_secs(1), every(100_000.0)), 100_000);
    }
}
