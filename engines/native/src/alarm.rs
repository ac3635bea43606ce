//! The open model's alarm clock: it wakes a generator thread's schedule at each intended send time. tokio's timer
//! wakes at whole milliseconds at the earliest (its wheel's resolution, and the millisecond timeout it parks with), so a
//! send due a tenth of a millisecond from now went out 1–2 ms late, and that lag counts in every latency, which runs
//! from the intended send time (on node-http × json at 700 req/s: send lag p50 0.97 ms against a latency p50 of
//! 1.24 ms). An OS thread sleeps until each intended time instead, on the kernel's high-resolution timer, and rings
//! the runtime through a Notify; the schedule itself (what is due, its counts) stays on the runtime's thread. It wakes only
//! for a send that is due, never on a fixed tick: at 2,000 req/s a thread's alarm rings at most 2,000 times a second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// The alarm rings at most this often, 4,000 times a second: at higher rates each ring releases every send due since the
/// last one (a lag of at most this much, where tokio's timer gave a millisecond), and the thread does not spin. A ring
/// wakes two threads, and those wake-ups, not the requests, were most of what the open model cost: at 5,000 req/s on
/// node-http × json, 4 s took 0.90 s of cpu with rings at least 100 µs apart (one per send), 0.61 s at 250 µs and 0.42 s
/// at 500 µs (2026-12-02, a 2-core VM); 250 µs keeps the lag within a quarter of a millisecond.
pub const MIN_RING_GAP: Duration = Duration::from_micros(250);

/// Rings at `start + interval × k` for every k from `first` on while that time is before `end`, until dropped.
pub struct Alarm {
    ring: Arc<Notify>,
    stopped: Arc<AtomicBool>,
}

impl Alarm {
    pub fn start(start: Instant, interval: Duration, end: Instant, first: u32) -> Alarm {
        let ring = Arc::new(Notify::new());
        let stopped = Arc::new(AtomicBool::new(false));
        let (thread_ring, thread_stopped) = (ring.clone(), stopped.clone());
        std::thread::Builder::new()
            .name("dyno-load-alarm".into())
            .spawn(move || keep_time(start, interval, end, first, &thread_ring, &thread_stopped))
            .expect("an alarm thread");
        Alarm { ring, stopped }
    }

    /// Waits for the next ring; a ring that came while nobody waited is kept (one), so none is lost.
    pub async fn rung(&self) {
        self.ring.notified().await;
    }
}

impl Drop for Alarm {
    fn drop(&mut self) {
        self.stopped.store(true, Ordering::Relaxed);
    }
}

/// The alarm thread: sleeps until each intended time (or the gap after the last ring), rings, and skips every
/// intended time that has passed meanwhile. Ends after the schedule's last time, or at the first wake after the
/// alarm was dropped.
fn keep_time(
    start: Instant,
    interval: Duration,
    end: Instant,
    first: u32,
    ring: &Notify,
    stopped: &AtomicBool,
) {
    let mut next = u64::from(first);
    let mut last_ring: Option<Instant> = None;
    while !stopped.load(Ordering::Relaxed) {
        let due = intended(start, interval, next);
        if due >= end {
            break;
        }
        let wake = last_ring.map_or(due, |rang| due.max(rang + MIN_RING_GAP));
        let now = Instant::now();
        if wake > now {
            std::thread::sleep(wake - now);
        }
        let now = Instant::now();
        ring.notify_one();
        last_ring = Some(now);
        next = passed(start, interval, now).max(next + 1);
    }
}

/// The intended time of send `k`.
fn intended(start: Instant, interval: Duration, k: u64) -> Instant {
    start
        + Duration::from_nanos(
            interval
                .as_nanos()
                .saturating_mul(u128::from(k))
                .min(u128::from(u64::MAX)) as u64,
        )
}

/// The first k whose intended time is after `now`.
fn passed(start: Instant, interval: Duration, now: Instant) -> u64 {
    let elapsed = now.saturating_duration_since(start).as_nanos();
    let step = interval.as_nanos().max(1);
    u64::try_from(elapsed / step + 1).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn never_rings_before_an_intended_time_and_stops_after_the_last() {
        let start = Instant::now() + Duration::from_millis(5);
        let interval = Duration::from_micros(2500);
        let end = start + Duration::from_millis(50);
        let alarm = Alarm::start(start, interval, end, 0);
        let mut rings = 0u64;
        // 20 intended times; under load several may share a ring, never one ring before its time.
        while tokio::time::timeout(Duration::from_millis(500), alarm.rung())
            .await
            .is_ok()
        {
            assert!(Instant::now() >= intended(start, interval, 0));
            rings += 1;
            assert!(rings <= 20, "rang more often than there are intended times");
        }
        assert!(rings >= 1);
        assert!(Instant::now() >= end);
    }

    #[test]
    fn skips_the_times_that_passed_and_knows_where_it_is() {
        let start = Instant::now();
        let interval = Duration::from_millis(10);
        assert_eq!(passed(start, interval, start), 1);
        assert_eq!(
            passed(start, interval, start + Duration::from_millis(25)),
            3
        );
        assert_eq!(
            intended(start, interval, 3),
            start + Duration::from_millis(30)
        );
    }
}
