//! What each generator thread counts, and how the threads' counts become one phase report: histograms
//! are added (exact), counts summed, windows merged by index.

use base64::Engine as _;
use hdrhistogram::serialization::{Serializer, V2DeflateSerializer};
use hdrhistogram::Histogram;
use serde::Serialize;
use std::collections::BTreeMap;
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
    pub requests: u64,
    pub bytes: u64,
    pub errors: u64,
    pub timeouts: u64,
    pub mismatches: u64,
    pub statuses: Vec<u64>,
    /// Open model: requests the schedule has released, and the most it lagged behind itself.
    pub sent: u64,
    pub max_send_lag: Duration,
}

impl ThreadStats {
    pub fn new() -> Self {
        ThreadStats {
            histogram: new_histogram(),
            window: new_histogram(),
            window_requests: 0,
            window_errors: 0,
            requests: 0,
            bytes: 0,
            errors: 0,
            timeouts: 0,
            mismatches: 0,
            statuses: vec![0; STATUS_SLOTS],
            sent: 0,
            max_send_lag: Duration::ZERO,
        }
    }

    /// One response: its latency, its status and whether its body matched.
    #[inline]
    pub fn response(&mut self, latency: Duration, status: u16, body_ok: bool) {
        let value = latency_us(latency);
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
        for (total, count) in self.statuses.iter_mut().zip(&other.statuses) {
            *total += count;
        }
        self.sent += other.sent;
        self.max_send_lag = self.max_send_lag.max(other.max_send_lag);
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

    /// Hands the current window over and starts the next.
    pub fn take_window(&mut self) -> (Histogram<u64>, u64, u64) {
        let histogram = std::mem::replace(&mut self.window, new_histogram());
        let taken = (histogram, self.window_requests, self.window_errors);
        self.window_requests = 0;
        self.window_errors = 0;
        taken
    }
}

/// One window of one thread, sent to the main thread as it closes.
pub struct WindowPart {
    pub index: usize,
    pub closed_at: Instant,
    pub histogram: Histogram<u64>,
    pub requests: u64,
    pub errors: u64,
}

/// A window of the phase, every thread's part added.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    pub start_ms: f64,
    pub duration_ms: f64,
    pub requests: u64,
    pub errors: u64,
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
    open: BTreeMap<usize, (Histogram<u64>, u64, u64, usize, Instant)>,
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
        let entry = self
            .open
            .entry(part.index)
            .or_insert_with(|| (new_histogram(), 0, 0, 0, part.closed_at));
        entry
            .0
            .add(&part.histogram)
            .expect("histograms of the same bounds");
        entry.1 += part.requests;
        entry.2 += part.errors;
        entry.3 += 1;
        entry.4 = entry.4.max(part.closed_at);
        if entry.3 == self.threads {
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
        let Some((histogram, requests, errors, _, closed_at)) = self.open.remove(&index) else {
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
            latency_us: (requests > 0).then_some(quantiles),
            histogram_us: (self.keep_histograms && requests > 0).then(|| encode(&histogram)),
        });
    }
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
    pub status_counts: BTreeMap<u16, u64>,
    /// Responses in each whole second of the phase, for the spread of the rate.
    pub per_second: Vec<u64>,
    /// The phase's µs histogram in the standard compressed encoding, base64.
    pub latency_histogram_us: String,
    pub windows: Vec<Window>,
    pub stopped_early: bool,
    pub rate: Option<RateReport>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RateReport {
    pub target_per_sec: f64,
    pub achieved_send_per_sec: f64,
    pub max_send_lag_ms: f64,
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
        let mut stats = ThreadStats::new();
        stats.response(Duration::from_micros(250), 200, true);
        stats.response(Duration::from_micros(750), 404, false);
        stats.error(2);
        let (histogram, requests, errors) = stats.take_window();
        assert_eq!((histogram.len(), requests, errors), (2, 2, 2));
        let (histogram, requests, errors) = stats.take_window();
        assert_eq!((histogram.len(), requests, errors), (0, 0, 0));
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
}
