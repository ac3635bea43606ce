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
    Histogram::new_with_bounds(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS).expect("valid histogram bounds")
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
        self.histogram.add(&other.histogram).expect("histograms of the same bounds");
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
        self.statuses.iter().enumerate().filter(|(_, &count)| count > 0).map(|(status, &count)| (status as u16, count)).collect()
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
}

/// Adds the threads' window parts as they arrive and closes a window once every thread has sent its part.
pub struct WindowMerger {
    threads: usize,
    start: Instant,
    window: Duration,
    open: BTreeMap<usize, (Histogram<u64>, u64, u64, usize, Instant)>,
    pub closed: Vec<Window>,
}

impl WindowMerger {
    pub fn new(threads: usize, start: Instant, window: Duration) -> Self {
        WindowMerger { threads, start, window, open: BTreeMap::new(), closed: Vec::new() }
    }

    pub fn add(&mut self, part: WindowPart) {
        let entry = self.open.entry(part.index).or_insert_with(|| (new_histogram(), 0, 0, 0, part.closed_at));
        entry.0.add(&part.histogram).expect("histograms of the same bounds");
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
        self.closed.sort_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
        self.closed
    }

    fn close(&mut self, index: usize) {
        let Some((histogram, requests, errors, _, closed_at)) = self.open.remove(&index) else { return };
        let start = self.start + self.window * index as u32;
        let quantiles = [0.5, 0.75, 0.9, 0.99].map(|quantile| histogram.value_at_quantile(quantile));
        self.closed.push(Window {
            start_ms: round3(millis(start - self.start)),
            duration_ms: round3(millis(closed_at.saturating_duration_since(start))),
            requests,
            errors,
            latency_us: (requests > 0).then_some(quantiles),
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
    V2DeflateSerializer::new().serialize(histogram, &mut bytes).expect("serializing into memory");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

pub fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}
