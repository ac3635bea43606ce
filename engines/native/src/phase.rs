//! What every thread of a phase shares with the main thread: the phase's start and end, the stop flag, the responses
//! so far per thread, and why the run cannot go on, if it cannot.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

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
