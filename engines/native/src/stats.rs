//! What each generator thread counts, and how the threads' counts become one phase report: histograms
//! are added (exact), counts summed, windows merged by index.

use base64::Engine as _;
use hdrhistogram::serialization::{Serializer, V2DeflateSerializer};
use hdrhistogram::Histogram;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// The histograms of the harness (harness/src/load/latency-histogram.js): µs from 1 µs to 60 s, 3 digits.
const LOWEST_US: u64 = 1;
const HIGHEST_US: u64 = 60_000_000;
const SIGNIFICANT_DIGITS: u8 = 3;
/// Statuses are counted in an array indexed by the status.
const STATUS_SLOTS: usize = 600;

pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS)
        .expect("valid histogram bounds")
}

/// A latency in µs, clamped into the histogram's range as the harness clamps it.
pub fn latency_us(latency: Duration) -> u64 {
    (latency.as_micros() as u64).clamp(LOWEST_US, HIGHEST_US)
}

/// The counts of one thread over one phase (the current window apart), and of all threads once added.
pub struct ThreadStats {
    pub histogram: Histogram<u64>,
    pub window: Histogram<u64>,
    pub window_requests: u64,
    pub window_errors: u64,
    /// When the current window began for this thread: the phase's start (once its clock starts), then each time it handed a
    /// window over.
    pub window_started: Instant,
    /// The time requests spent in flight inside the current window so far (those that ended in it; the rest are added
    /// when it closes), and what a previous window's µs left over below 1 µs.
    pub window_in_flight: Duration,
    in_flight_carry: Duration,
    pub requests: u64,
    pub bytes: u64,
    pub errors: u64,
    pub timeouts: u64,
    pub mismatches: u64,
    /// Responses (or WebSocket frames) refused as invalid: not HTTP, a length that cannot be, a head or body over its bound.
    pub invalid_responses: u64,
    /// Each named failure and how often: the invalid responses by their reason, the handshakes that ran out of time.
    pub failures: BTreeMap<&'static str, u64>,
    pub statuses: Vec<u64>,
    /// Open model: requests the schedule has released, how far behind itself it released each (µs), and the most.
    pub sent: u64,
    pub send_lag: Histogram<u64>,
    pub max_send_lag: Duration,
    /// What the connections spoke once established (`http/1.1 over TLSv1.3`, …): one entry unless they differed.
    pub negotiated: BTreeSet<&'static str>,
}

impl ThreadStats {
    /// The counts of a thread whose phase (and first window) begins at `start`.
    pub fn new(start: Instant) -> Self {
        ThreadStats {
            histogram: new_histogram(),
            window: new_histogram(),
            window_requests: 0,
            window_errors: 0,
            window_started: start,
            window_in_flight: Duration::ZERO,
            in_flight_carry: Duration::ZERO,
            requests: 0,
            bytes: 0,
            errors: 0,
            timeouts: 0,
            mismatches: 0,
            invalid_responses: 0,
            failures: BTreeMap::new(),
            statuses: vec![0; STATUS_SLOTS],
            sent: 0,
            send_lag: new_histogram(),
            max_send_lag: Duration::ZERO,
            negotiated: BTreeSet::new(),
        }
    }

    /// One response (or echoed message) that completed at `now`, sent (or meant to be sent, in the open model) at
    /// `sent`: its latency, its status, whether its body matched, and its time in flight.
    #[inline]
    pub fn response(&mut self, sent: Instant, now: Instant, status: u16, body_ok: bool) {
        self.in_flight_until(sent, now);
        let value = latency_us(now.saturating_duration_since(sent));
        self.histogram.saturating_record(value);
        self.window.saturating_record(value);
        self.requests += 1;
        self.window_requests += 1;
        self.statuses[usize::from(status).min(STATUS_SLOTS - 1)] += 1;
        if !body_ok {
            self.mismatches += 1;
        }
    }

    pub fn error(&mut self, count: u64) {
        self.errors += count;
        self.window_errors += count;
    }

    /// A response refused for `reason`; the requests its connection had in flight are counted as errors when it ends.
    pub fn invalid(&mut self, reason: &'static str) {
        self.invalid_responses += 1;
        self.name_failure(reason);
    }

    /// A connection that did not come up, for `reason` (a handshake not done in time): an error, named.
    pub fn failed_to_connect(&mut self, reason: &'static str) {
        self.error(1);
        self.name_failure(reason);
    }

    /// Why a failure counted elsewhere (as an error, when its connection ends) happened.
    pub fn name_failure(&mut self, reason: &'static str) {
        *self.failures.entry(reason).or_default() += 1;
    }

    /// A request sent at `sent` was in flight until `now` (it completed, failed, timed out, or the window closes with it
    /// still in flight): the part of that time inside the current window counts to it; what lay in earlier windows
    /// was counted when they closed.
    #[inline]
    pub fn in_flight_until(&mut self, sent: Instant, now: Instant) {
        self.window_in_flight += now.saturating_duration_since(sent.max(self.window_started));
    }

    /// Adds another thread's counts of the same phase (the window apart): histograms added, counts summed.
    pub fn add(&mut self, other: &ThreadStats) {
        self.histogram
            .add(&other.histogram)
            .expect("histograms of the same bounds");
        self.requests += other.requests;
        self.bytes += other.bytes;
        self.errors += other.errors;
        self.timeouts += other.timeouts;
        self.mismatches += other.mismatches;
        self.invalid_responses += other.invalid_responses;
        for (&reason, count) in &other.failures {
            *self.failures.entry(reason).or_default() += count;
        }
        for (total, count) in self.statuses.iter_mut().zip(&other.statuses) {
            *total += count;
        }
        self.sent += other.sent;
        self.send_lag
            .add(&other.send_lag)
            .expect("histograms of the same bounds");
        self.max_send_lag = self.max_send_lag.max(other.max_send_lag);
        self.negotiated.extend(&other.negotiated);
    }

    /// Responses per status, the statuses seen only.
    pub fn status_counts(&self) -> BTreeMap<u16, u64> {
        self.statuses
            .iter()
            .enumerate()
            .filter(|(_, &count)| count > 0)
            .map(|(status, &count)| (status as u16, count))
            .collect()
    }

    /// Hands window `index` over as it closes at `now` and starts the next there. The caller has added, with
    /// `in_flight_until(sent, now)`, every request still in flight (the open model's queue included). Its time in flight
    /// goes in whole µs; what is left below 1 µs is carried to the next window, so the windows add up to the total.
    pub fn take_window(&mut self, index: usize, now: Instant) -> WindowPart {
        let histogram = std::mem::replace(&mut self.window, new_histogram());
        let in_flight = self.window_in_flight + self.in_flight_carry;
        let in_flight_us = in_flight.as_micros() as u64;
        self.in_flight_carry = in_flight - Duration::from_micros(in_flight_us);
        let part = WindowPart {
            index,
            closed_at: now,
            histogram,
            requests: self.window_requests,
            errors: self.window_errors,
            in_flight_us,
        };
        self.window_requests = 0;
        self.window_errors = 0;
        self.window_in_flight = Duration::ZERO;
        self.window_started = self.window_started.max(now);
        part
    }
}

/// One window of one thread, sent to the main thread as it closes.
pub struct WindowPart {
    pub index: usize,
    pub closed_at: Instant,
    pub histogram: Histogram<u64>,
    pub requests: u64,
    pub errors: u64,
    /// The time its requests spent in flight inside the window, in µs, summed over them (completed or not).
    pub in_flight_us: u64,
}

/// A window of the phase, every thread's part added.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    pub start_ms: f64,
    pub duration_ms: f64,
    pub requests: u64,
    pub errors: u64,
    /// The time requests spent in flight inside the window, summed over them, completed or not (µs): divided by the
    /// window's duration, the mean number in flight (Little's law).
    pub in_flight_us: u64,
    /// p50, p75, p90, p99 in µs; absent when no response completed.
    pub latency_us: Option<[u64; 4]>,
    /// The window's µs histogram, encoded as the phase's is, when the config asks for it and a response completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub histogram_us: Option<String>,
}

/// Adds the threads' window parts as they arrive and closes a window once every thread has sent its part.
pub struct WindowMerger {
    threads: usize,
    keep_histograms: bool,
    start: Instant,
    window: Duration,
    open: BTreeMap<usize, OpenWindow>,
    pub closed: Vec<Window>,
}

impl WindowMerger {
    pub fn new(threads: usize, start: Instant, window: Duration, keep_histograms: bool) -> Self {
        WindowMerger {
            threads,
            keep_histograms,
            start,
            window,
            open: BTreeMap::new(),
            closed: Vec::new(),
        }
    }

    pub fn add(&mut self, part: WindowPart) {
        let entry = self.open.entry(part.index).or_insert_with(|| OpenWindow {
            histogram: new_histogram(),
            requests: 0,
            errors: 0,
            in_flight_us: 0,
            parts: 0,
            closed_at: part.closed_at,
        });
        entry
            .histogram
            .add(&part.histogram)
            .expect("histograms of the same bounds");
        entry.requests += part.requests;
        entry.errors += part.errors;
        entry.in_flight_us += part.in_flight_us;
        entry.parts += 1;
        entry.closed_at = entry.closed_at.max(part.closed_at);
        if entry.parts == self.threads {
            self.close(part.index);
        }
    }

    /// Closes every window still open (at the end of the phase), in order.
    pub fn finish(mut self) -> Vec<Window> {
        let indexes: Vec<usize> = self.open.keys().copied().collect();
        for index in indexes {
            self.close(index);
        }
        self.closed
            .sort_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
        self.closed
    }

    fn close(&mut self, index: usize) {
        let Some(OpenWindow {
            histogram,
            requests,
            errors,
            in_flight_us,
            closed_at,
            ..
        }) = self.open.remove(&index)
        else {
            return;
        };
        let start = self.start + self.window * index as u32;
        let quantiles =
            [0.5, 0.75, 0.9, 0.99].map(|quantile| histogram.value_at_quantile(quantile));
        self.closed.push(Window {
            start_ms: round3(millis(start - self.start)),
            duration_ms: round3(millis(closed_at.saturating_duration_since(start))),
            requests,
            errors,
            in_flight_us,
            latency_us: (requests > 0).then_some(quantiles),
            histogram_us: (self.keep_histograms && requests > 0).then(|| encode(&histogram)),
        });
    }
}

/// A window some threads have sent their part of: the parts added so far, and the latest of their closes.
struct OpenWindow {
    histogram: Histogram<u64>,
    requests: u64,
    errors: u64,
    in_flight_us: u64,
    parts: usize,
    closed_at: Instant,
}

/// The report of one phase, as the harness reads it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhaseReport {
    pub name: String,
    pub duration_ms: f64,
    pub requests: u64,
    pub bytes: u64,
    pub errors: u64,
    pub timeouts: u64,
    pub mismatches: u64,
    /// Responses refused as invalid (each also ends its connection, whose requests in flight are errors).
    pub invalid_responses: u64,
    /// Why: each invalid response's reason, and each handshake that ran out of time, with how often.
    pub failure_reasons: BTreeMap<&'static str, u64>,
    pub status_counts: BTreeMap<u16, u64>,
    /// Responses in each whole second of the phase, for the spread of the rate.
    pub per_second: Vec<u64>,
    /// The phase's µs histogram in the standard compressed encoding, base64.
    pub latency_histogram_us: String,
    pub windows: Vec<Window>,
    pub stopped_early: bool,
    /// How long the phase's connections took to come up (ms), before its clock started: the duration, the per-second counts
    /// and the windows all run from then. The clock waits at most the response timeout for them.
    pub connect_ms: f64,
    /// How many connections were up when the clock started: fewer than the config's when the wait was cut short (its
    /// bound, a stop, a failure) or a first connect failed.
    pub connections_up: usize,
    pub rate: Option<RateReport>,
    /// What the connections spoke (`http/1.1`, `http/1.1 over TLSv1.3`, `h2 over TLSv1.3`, `h2c`, `websocket over
    /// http/1.1`), joined by `, ` should they have differed; null when no connection was established.
    pub protocol_negotiated: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RateReport {
    pub target_per_sec: f64,
    pub achieved_send_per_sec: f64,
    pub max_send_lag_ms: f64,
    /// How far behind its intended time each request was released (µs, 0 counted as 1), encoded as the latencies are:
    /// the share of late sends, which the harness weighs against the latency objective's percentiles.
    pub send_lag_histogram_us: String,
}

/// The histogram in the compressed V2 encoding every HdrHistogram reads (hdr-histogram-js included), base64.
pub fn encode(histogram: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2DeflateSerializer::new()
        .serialize(histogram, &mut bytes)
        .expect("serializing into memory");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

pub fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: Duration = Duration::from_millis(100);

    /// A part of window `index` from one thread: `latencies_us` recorded, `errors` counted, closed `closed_ms`
    /// after the phase's start.
    fn part(
        start: Instant,
        index: usize,
        closed_ms: u64,
        latencies_us: &[u64],
        errors: u64,
    ) -> WindowPart {
        let mut histogram = new_histogram();
        for &latency in latencies_us {
            histogram.record(latency).unwrap();
        }
        WindowPart {
            index,
            closed_at: start + Duration::from_millis(closed_ms),
            histogram,
            requests: latencies_us.len() as u64,
            errors,
            in_flight_us: 0,
        }
    }

    fn quantiles(histogram: &Histogram<u64>) -> [u64; 4] {
        [0.5, 0.75, 0.9, 0.99].map(|quantile| histogram.value_at_quantile(quantile))
    }

    #[test]
    fn a_window_closes_only_once_every_thread_has_sent_its_part() {
        let start = Instant::now();
        let mut merger = WindowMerger::new(3, start, WINDOW, false);
        merger.add(part(start, 0, 100, &[10, 20], 1));
        merger.add(part(start, 0, 101, &[30], 0));
        assert!(
            merger.closed.is_empty(),
            "two of three threads have reported window 0"
        );
        merger.add(part(start, 0, 102, &[], 2));
        assert_eq!(merger.closed.len(), 1);
        let window = &merger.closed[0];
        assert_eq!((window.requests, window.errors), (3, 3));
        assert_eq!(window.start_ms, 0.0);
        // Up to the last part's close.
        assert_eq!(window.duration_ms, 102.0);
        assert!(merger.finish().len() == 1, "nothing else was open");
    }

    #[test]
    fn a_window_adds_its_parts_exactly_and_reads_percentiles_from_the_added_histogram() {
        let start = Instant::now();
        let mut merger = WindowMerger::new(2, start, WINDOW, false);
        // Skewed parts: the percentiles of the whole are neither thread's nor an average of theirs.
        let fast: Vec<u64> = (1..=900).collect();
        let slow: Vec<u64> = (1..=100).map(|n| 10_000 + n * 100).collect();
        merger.add(part(start, 0, 100, &fast, 4));
        merger.add(part(start, 0, 100, &slow, 5));
        let mut everything = new_histogram();
        for &latency in fast.iter().chain(&slow) {
            everything.record(latency).unwrap();
        }
        let windows = merger.finish();
        assert_eq!(windows.len(), 1);
        assert_eq!((windows[0].requests, windows[0].errors), (1000, 9));
        assert_eq!(windows[0].latency_us, Some(quantiles(&everything)));
        // 1000 latencies: the 500th, 750th and 900th are fast ones, the 990th is the 90th slow one.
        let expected =
            [500, 750, 900, 10_000 + 90 * 100].map(|value| everything.highest_equivalent(value));
        assert_eq!(windows[0].latency_us, Some(expected));
    }

    #[test]
    fn a_thread_ahead_of_another_leaves_its_later_windows_open_until_the_other_catches_up() {
        let start = Instant::now();
        let mut merger = WindowMerger::new(2, start, WINDOW, false);
        // Thread A sends windows 0, 1 and 2 before thread B sends any.
        merger.add(part(start, 0, 100, &[100], 0));
        merger.add(part(start, 1, 200, &[200, 200], 0));
        merger.add(part(start, 2, 300, &[300, 300, 300], 0));
        assert!(merger.closed.is_empty());
        merger.add(part(start, 0, 101, &[100], 0));
        assert_eq!(
            merger.closed.len(),
            1,
            "window 0 closes, windows 1 and 2 wait for thread B"
        );
        assert_eq!(merger.closed[0].requests, 2);
        merger.add(part(start, 1, 201, &[200], 0));
        merger.add(part(start, 2, 301, &[300], 0));
        let windows = merger.finish();
        let requests: Vec<u64> = windows.iter().map(|window| window.requests).collect();
        assert_eq!(requests, [2, 3, 4]);
        let starts: Vec<f64> = windows.iter().map(|window| window.start_ms).collect();
        assert_eq!(starts, [0.0, 100.0, 200.0]);
    }

    #[test]
    fn finish_closes_the_windows_still_open_with_the_parts_they_have_and_sorts_them() {
        let start = Instant::now();
        let mut merger = WindowMerger::new(2, start, WINDOW, false);
        // Both threads report window 1 before one of them reports window 0 (the merger does not rely on the
        // order parts arrive in); the other never reports window 0 or window 2 (it stopped first).
        merger.add(part(start, 1, 200, &[50], 0));
        merger.add(part(start, 1, 200, &[60], 1));
        merger.add(part(start, 0, 100, &[40], 0));
        merger.add(part(start, 2, 250, &[], 3));
        assert_eq!(merger.closed.len(), 1, "only window 1 has both parts");
        let windows = merger.finish();
        let summary: Vec<(f64, f64, u64, u64)> = windows
            .iter()
            .map(|window| {
                (
                    window.start_ms,
                    window.duration_ms,
                    window.requests,
                    window.errors,
                )
            })
            .collect();
        // Window 2 was cut short by the end of the phase: 50 ms of its 100.
        assert_eq!(
            summary,
            [
                (0.0, 100.0, 1, 0),
                (100.0, 100.0, 2, 1),
                (200.0, 50.0, 0, 3)
            ]
        );
        assert_eq!(windows[0].latency_us, Some([40; 4]));
        assert_eq!(
            windows[2].latency_us, None,
            "no response completed in window 2, only errors"
        );
    }

    #[test]
    fn a_thread_window_handed_over_starts_the_next_empty() {
        let start = Instant::now();
        let mut stats = ThreadStats::new(start);
        stats.response(start, start + Duration::from_micros(250), 200, true);
        stats.response(start, start + Duration::from_micros(750), 404, false);
        stats.error(2);
        let part = stats.take_window(0, start + WINDOW);
        assert_eq!(
            (
                part.histogram.len(),
                part.requests,
                part.errors,
                part.in_flight_us
            ),
            (2, 2, 2, 1000)
        );
        let part = stats.take_window(1, start + WINDOW * 2);
        assert_eq!(
            (
                part.histogram.len(),
                part.requests,
                part.errors,
                part.in_flight_us
            ),
            (0, 0, 0, 0)
        );
        // The phase's counts keep everything.
        assert_eq!(
            (
                stats.histogram.len(),
                stats.requests,
                stats.errors,
                stats.mismatches
            ),
            (2, 2, 2, 1)
        );
        assert_eq!(stats.status_counts(), BTreeMap::from([(200, 1), (404, 1)]));
    }

    fn us(count: u64) -> Duration {
        Duration::from_micros(count)
    }

    #[test]
    fn a_request_in_flight_across_windows_is_split_between_them_exactly() {
        let start = Instant::now();
        let mut stats = ThreadStats::new(start);
        // Sent 70 ms into window 0 (100 ms wide), answered 40 ms into window 1: 30 ms in the first, 40 ms in the second.
        let sent = start + us(70_000);
        let close = |stats: &mut ThreadStats, index: usize, at: Instant, in_flight: &[Instant]| {
            for &sent in in_flight {
                stats.in_flight_until(sent, at);
            }
            stats.take_window(index, at)
        };
        assert_eq!(
            close(&mut stats, 0, start + WINDOW, &[sent]).in_flight_us,
            30_000
        );
        stats.response(sent, start + us(140_000), 200, true);
        assert_eq!(
            close(&mut stats, 1, start + WINDOW * 2, &[]).in_flight_us,
            40_000
        );
        // The latency is the whole 70 ms, counted once, in the window it completed in.
        assert_eq!(stats.histogram.count_at(70_000), 1);
    }

    #[test]
    fn a_request_spanning_several_windows_fills_those_between_and_one_never_answered_counts_until_it_ends(
    ) {
        let start = Instant::now();
        let mut stats = ThreadStats::new(start);
        let sent = start + us(50_000);
        let mut parts = Vec::new();
        // In flight through windows 0 to 2; it fails 25 ms into window 3 (a timeout, a connection lost).
        for index in 0..3 {
            let at = start + WINDOW * (index as u32 + 1);
            stats.in_flight_until(sent, at);
            parts.push(stats.take_window(index, at).in_flight_us);
        }
        stats.in_flight_until(sent, start + us(325_000));
        stats.error(1);
        parts.push(stats.take_window(3, start + WINDOW * 4).in_flight_us);
        assert_eq!(parts, [50_000, 100_000, 100_000, 25_000]);
        assert_eq!(
            parts.iter().sum::<u64>(),
            275_000,
            "its whole time in flight, once"
        );
    }

    #[test]
    fn windows_closed_late_or_early_still_partition_the_time_in_flight_and_carry_what_is_below_a_microsecond(
    ) {
        let start = Instant::now();
        let mut stats = ThreadStats::new(start);
        // A thread closes its windows when it gets to it: 103.4 ms, then 199.9 ms; requests 1.5 µs apart.
        let closes = [
            start + Duration::from_nanos(103_400_300),
            start + Duration::from_nanos(199_900_700),
        ];
        let sends: Vec<Instant> = (0..1000)
            .map(|n| start + Duration::from_nanos(1_500 * n))
            .collect();
        let end = start + Duration::from_nanos(250_000_900);
        let mut total = 0;
        for (index, &at) in closes.iter().enumerate() {
            for &sent in &sends {
                stats.in_flight_until(sent, at);
            }
            total += stats.take_window(index, at).in_flight_us;
        }
        for &sent in &sends {
            stats.response(sent, end, 200, true);
        }
        total += stats.take_window(2, end + us(1)).in_flight_us;
        let exact: Duration = sends.iter().map(|&sent| end - sent).sum();
        assert_eq!(
            total,
            exact.as_micros() as u64,
            "the windows add up to the whole, to the µs"
        );
    }

    #[test]
    fn the_time_in_flight_of_several_threads_adds_up_in_their_window() {
        let start = Instant::now();
        let mut merger = WindowMerger::new(3, start, WINDOW, false);
        for (thread, in_flight_us) in [(0, 99_000), (1, 100_000), (2, 37_123)] {
            let mut window = part(start, 0, 100 + thread, &[10], 0);
            window.in_flight_us = in_flight_us;
            merger.add(window);
        }
        assert_eq!(merger.finish()[0].in_flight_us, 236_123);
    }
}
