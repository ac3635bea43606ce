//! dyno-load: dyno's native load generator. Reads a config (JSON) on standard input, runs its phases in order (each
//! on fresh connections, its clock started once they are up, one thread per generator cpu), and writes JSON lines on
//! standard output: `progress` once a second, a `phase` report when each phase ends, `done` at the end. SIGTERM or
//! SIGINT ends the phase under way early (still reported, `stoppedEarly`) and runs no further phase. A phase that
//! cannot go on (a certificate not trusted, HTTP/2 not negotiated, a WebSocket handshake refused) writes a `failed`
//! line naming why instead of its report, and the engine exits with code 1.

mod alarm;
mod check;
mod config;
mod connection;
mod http1;
mod http2;
mod http2_request;
mod load;
mod phase;
mod response;
mod stats;
mod target;
mod tls;
mod websocket;
mod websocket_frames;
mod websocket_target;

use config::Config;
use load::run_thread;
use phase::PhaseShared;
use serde_json::json;
use stats::{encode, millis, round3, PhaseReport, RateReport, ThreadStats, WindowMerger};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use target::Target;

/// How often the main thread looks at signals, progress and windows.
const POLL: Duration = Duration::from_millis(50);
/// How often the engine looks whether dyno, its parent, is still there.
const ORPHAN_CHECK: Duration = Duration::from_millis(200);

fn main() {
    let mut input = String::new();
    if let Err(error) = std::io::stdin().read_to_string(&mut input) {
        fail(&format!(
            "cannot read the config from standard input: {error}"
        ));
    }
    let config: Config = match serde_json::from_str(&input) {
        Ok(config) => config,
        Err(error) => fail(&format!("the config is not valid: {error}")),
    };
    if let Some(problem) = config.problem() {
        fail(&format!("the config is not valid: {problem}"));
    }
    let target = match Target::new(&config) {
        Ok(target) => Arc::new(target),
        Err(problem) => fail(&format!("the config is not valid: {problem}")),
    };
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, stop.clone()).expect("a signal handler");
    }
    stop_when_orphaned(stop.clone());
    if let Some(at) = config.start_at_unix_ms {
        wait_until(at);
    }
    let config = Arc::new(config);
    for phase in &config.phases {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        match run_phase(
            &config,
            &target,
            &phase.name,
            Duration::from_millis(phase.duration_ms),
            &stop,
        ) {
            Ok(report) => emit(&json!({ "type": "phase", "report": report })),
            Err(reason) => {
                emit(&json!({ "type": "failed", "phase": phase.name, "message": reason }));
                eprintln!("dyno-load: the {} phase failed: {reason}", phase.name);
                std::process::exit(1);
            }
        }
    }
    emit(&json!({ "type": "done" }));
}

/// dyno killed outright (SIGKILL) cannot stop its engine: the engine sees its parent change (it is re-parented) and stops as if
/// signalled, so no load outlives the run that asked for it.
fn stop_when_orphaned(stop: Arc<AtomicBool>) {
    let parent = std::os::unix::process::parent_id();
    std::thread::spawn(move || loop {
        std::thread::sleep(ORPHAN_CHECK);
        if std::os::unix::process::parent_id() != parent {
            stop.store(true, Ordering::Relaxed);
            return;
        }
    });
}

/// Sleeps until `at_unix_ms`, so that engines on several hosts begin together (their clocks kept by NTP).
fn wait_until(at_unix_ms: u64) {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|since| since.as_millis() as u64)
        .unwrap_or(0);
    std::thread::sleep(Duration::from_millis(at_unix_ms.saturating_sub(now_ms)));
}

/// Runs one phase on fresh connections, its clock started once they are up; Err: why it could not go on.
fn run_phase(
    config: &Arc<Config>,
    target: &Arc<Target>,
    name: &str,
    duration: Duration,
    stop: &AtomicBool,
) -> Result<PhaseReport, String> {
    let opened = Instant::now();
    let shared = Arc::new(PhaseShared::new(duration, config.threads));
    let (window_sender, window_receiver) = mpsc::channel();
    let threads: Vec<_> = (0..config.threads)
        .map(|index| {
            let (config, target, shared, sender) = (
                config.clone(),
                target.clone(),
                shared.clone(),
                window_sender.clone(),
            );
            std::thread::Builder::new()
                .name(format!("dyno-load-{index}"))
                .spawn(move || run_thread(&config, target, index, shared, sender))
                .expect("a generator thread")
        })
        .collect();
    drop(window_sender);
    // The clock waits for every connection to come up, at most the response timeout: one not up by then is as stuck as a
    // request unanswered that long, and the phase goes on without it (it comes up, if it does, while the phase runs).
    let (deadline, signalled) = (opened + config.timeout(), || stop.load(Ordering::Relaxed));
    let arrivals = shared.await_arrivals(config.connections, deadline, POLL, signalled);
    let clock = shared.start_clock();
    let start = clock.start;
    // dyno samples the SUT's and the generator's cpu over each phase: it moves the phase's window here, leaving the connecting out.
    emit(&json!({ "type": "clock", "phase": name }));

    let mut merger = WindowMerger::new(
        config.threads,
        start,
        config.window(),
        config.window_histograms,
    );
    let mut per_second = Vec::new();
    let mut counted = 0u64;
    let mut next_second = start + Duration::from_secs(1);
    let mut stopped_early = false;
    loop {
        // Wakes for each window part, at the next progress second, and after POLL at most to look at the signals; and
        // at once when every thread has ended, their senders gone with them: a phase never waits out a poll after its end
        // (sleeping POLL at a time added 25 ms to every phase on average).
        let until_second = next_second.saturating_duration_since(Instant::now());
        let wait = if next_second <= clock.end {
            POLL.min(until_second)
        } else {
            POLL
        };
        match window_receiver.recv_timeout(wait) {
            Ok(part) => merger.add(part),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if stop.load(Ordering::Relaxed) && !shared.stop.swap(true, Ordering::Relaxed) {
            stopped_early = Instant::now() < clock.end;
        }
        if Instant::now() >= next_second && next_second <= clock.end {
            let total: u64 = shared
                .responses
                .iter()
                .map(|count| count.load(Ordering::Relaxed))
                .sum();
            let this_second = total - counted;
            counted = total;
            per_second.push(this_second);
            emit(
                &json!({ "type": "progress", "phase": name, "elapsedSec": per_second.len(), "requestsPerSec": this_second }),
            );
            next_second += Duration::from_secs(1);
        }
    }
    let ended = Instant::now().min(clock.end);
    let mut totals = ThreadStats::new(start);
    for thread in threads {
        totals.add(
            &thread
                .join()
                .expect("a generator thread ended without its counts"),
        );
    }
    for part in window_receiver.try_iter() {
        merger.add(part);
    }
    if let Some(reason) = shared.failure() {
        return Err(reason);
    }
    let elapsed = ended.saturating_duration_since(start);
    Ok(PhaseReport {
        name: name.to_string(),
        duration_ms: round3(millis(elapsed)),
        requests: totals.requests,
        bytes: totals.bytes,
        errors: totals.errors,
        timeouts: totals.timeouts,
        mismatches: totals.mismatches,
        invalid_responses: totals.invalid_responses,
        failure_reasons: std::mem::take(&mut totals.failures),
        status_counts: totals.status_counts(),
        per_second,
        latency_histogram_us: encode(&totals.histogram),
        windows: merger.finish(),
        stopped_early,
        connect_ms: round3(millis(start - opened)),
        connections_up: arrivals.up,
        rate: config.rate_per_sec.map(|target| RateReport {
            target_per_sec: target,
            achieved_send_per_sec: round3(
                totals.sent as f64 / elapsed.as_secs_f64().max(f64::MIN_POSITIVE),
            ),
            max_send_lag_ms: round3(millis(totals.max_send_lag)),
            send_lag_histogram_us: encode(&totals.send_lag),
        }),
        protocol_negotiated: (!totals.negotiated.is_empty()).then(|| {
            totals
                .negotiated
                .iter()
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
        }),
    })
}

fn emit(value: &serde_json::Value) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{value}");
    let _ = out.flush();
}

fn fail(message: &str) -> ! {
    eprintln!("dyno-load: {message}");
    std::process::exit(2);
}
