//! What every thread of a phase shares with the main thread: the phase's clock and the gate its connections come up
//! through, the stop flag, the responses so far per thread, and why the run cannot go on, if it cannot.
//!
//! A phase opens fresh connections, and its clock starts only once they are up: each connection reports the end of its
//! first attempt (up, or failed) and waits; the main thread waits for every report (bounded), then starts the clock, which
//! opens the gate. So a phase's duration, rates and windows are its requests', not its connects' and handshakes' (100 TLS
//! connections against a Node server at 100 % of its cpu took 6 % of a 5 s phase with no request in flight).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// When a phase runs: from its start, once its connections are up, for its duration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub start: Instant,
    pub end: Instant,
}

/// The connections of a phase that have reported the end of their first attempt, and how many of those are up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Arrivals {
    pub reported: usize,
    pub up: usize,
}

/// What every thread of a phase shares with the main thread.
pub struct PhaseShared {
    duration: Duration,
    /// None until the main thread starts the clock; a watch so that it wakes the waiting tasks of every thread's runtime.
    clock: watch::Sender<Option<Clock>>,
    arrivals: Mutex<Arrivals>,
    arrived: Condvar,
    /// Set by the main thread when dyno asks to stop (SIGTERM, SIGINT): the phase ends early.
    pub stop: AtomicBool,
    /// Responses so far, per thread: read once a second for progress and the per-second rate.
    pub responses: Vec<AtomicU64>,
    /// Why the run cannot go on, said by the first connection that found it (a certificate refused, HTTP/2 not
    /// negotiated, a WebSocket handshake refused): the phase stops at once and fails with it.
    pub failure: Mutex<Option<String>>,
}

impl PhaseShared {
    pub fn new(duration: Duration, threads: usize) -> Self {
        PhaseShared {
            duration,
            clock: watch::Sender::new(None),
            arrivals: Mutex::new(Arrivals::default()),
            arrived: Condvar::new(),
            stop: AtomicBool::new(false),
            responses: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            failure: Mutex::new(None),
        }
    }

    /// A connection's first attempt of the phase ended, `up` or not (refused, a handshake lost).
    pub fn arrived(&self, up: bool) {
        let mut arrivals = lock(&self.arrivals);
        arrivals.reported += 1;
        arrivals.up += usize::from(up);
        drop(arrivals);
        self.arrived.notify_one();
    }

    /// The main thread waits until `connections` have arrived, `deadline` has passed, or the phase stops: a failure, or
    /// `stopping()` (a signal's flag, which cannot wake a Condvar: looked at every `poll`). Returns the arrivals then.
    pub fn await_arrivals(
        &self,
        connections: usize,
        deadline: Instant,
        poll: Duration,
        stopping: impl Fn() -> bool,
    ) -> Arrivals {
        let mut arrivals = lock(&self.arrivals);
        loop {
            let now = Instant::now();
            let stopped = stopping() || self.stop.load(Ordering::Relaxed);
            if arrivals.reported >= connections || now >= deadline || stopped {
                return *arrivals;
            }
            arrivals = self
                .arrived
                .wait_timeout(arrivals, (deadline - now).min(poll))
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
    }

    /// Starts the phase's clock now, which opens the gate: every task waiting in `started` goes on.
    pub fn start_clock(&self) -> Clock {
        let start = Instant::now();
        let clock = Clock {
            start,
            end: start + self.duration,
        };
        self.clock.send_replace(Some(clock));
        clock
    }

    /// The phase's clock, once the main thread has started it (at once if it has), on any thread's runtime.
    pub async fn started(&self) -> Clock {
        let mut receiver = self.clock.subscribe();
        loop {
            if let Some(clock) = *receiver.borrow_and_update() {
                return clock;
            }
            receiver
                .changed()
                .await
                .expect("the clock's sender lives as long as the phase");
        }
    }

    /// The run cannot go on: keeps the first reason given and stops every thread.
    pub fn fail(&self, reason: String) {
        lock(&self.failure).get_or_insert(reason);
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn failure(&self) -> Option<String> {
        lock(&self.failure).clone()
    }
}

/// A lock that a panicked holder did not spoil: what it guards is counts and a reason, whole at every step.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    const POLL: Duration = Duration::from_millis(10);
    /// Far beyond what the tests take: a wait that ends is not one that ran into it.
    const NEVER: Duration = Duration::from_secs(60);

    /// A generator thread's runtime with one connection: it arrives (`up` or not), waits for the clock, and says what it got.
    fn connection(
        shared: Arc<PhaseShared>,
        up: bool,
        went_on: Arc<AtomicBool>,
    ) -> std::thread::JoinHandle<Clock> {
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            runtime.block_on(async {
                shared.arrived(up);
                let clock = shared.started().await;
                went_on.store(true, Ordering::Relaxed);
                clock
            })
        })
    }

    #[test]
    fn the_clock_starts_once_every_connection_has_arrived_and_only_then_do_they_go_on() {
        let shared = Arc::new(PhaseShared::new(Duration::from_millis(100), 2));
        let went_on = Arc::new(AtomicBool::new(false));
        let threads: Vec<_> = [true, false]
            .map(|up| connection(shared.clone(), up, went_on.clone()))
            .into();
        let arrivals = shared.await_arrivals(2, Instant::now() + NEVER, POLL, || false);
        assert_eq!(
            arrivals,
            Arrivals { reported: 2, up: 1 },
            "one up, one failed"
        );
        assert!(
            !went_on.load(Ordering::Relaxed),
            "no connection goes on before the clock starts"
        );
        let clock = shared.start_clock();
        assert_eq!(clock.end - clock.start, Duration::from_millis(100));
        for thread in threads {
            assert_eq!(
                thread.join().unwrap(),
                clock,
                "every runtime woke with the clock"
            );
        }
    }

    #[test]
    fn the_wait_for_the_connections_ends_at_its_bound_or_as_soon_as_the_phase_stops() {
        let shared = PhaseShared::new(Duration::from_secs(1), 1);
        shared.arrived(true);
        let deadline = Instant::now() + Duration::from_millis(30);
        let arrivals = shared.await_arrivals(3, deadline, POLL, || false);
        assert!(Instant::now() >= deadline);
        assert_eq!(arrivals, Arrivals { reported: 1, up: 1 });

        let signalled = shared.await_arrivals(3, Instant::now() + NEVER, POLL, || true);
        assert_eq!(signalled.reported, 1, "a signal ends the wait");
        shared.fail("TLS refused".into());
        let failed = shared.await_arrivals(3, Instant::now() + NEVER, POLL, || false);
        assert_eq!(failed.reported, 1, "a failure ends the wait");
    }
}
