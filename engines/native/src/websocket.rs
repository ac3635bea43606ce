//! WebSocket echo (RFC 6455) over HTTP/1.1, on a frame loop of our own: the handshake checked (101 and the
//! Sec-WebSocket-Accept of the key sent), then each connection keeps `streams` messages in flight, each echo
//! compared with the message sent and timed against its send, the next message sent as each echo arrives; at the
//! end of the phase every connection closes with code 1000.
//!
//! Why not tokio-tungstenite: it allocates a `Message` for every frame each way, validates UTF-8 of every text echo
//! that we only compare byte for byte, and puts a Sink/Stream pair between the socket and us; here a frame is built
//! into a buffer reused for the whole connection, a read's worth of echoes is compared where it lies and answered
//! with one write, so the engine pays a copy and a mask per message. A handshake refused or a wrong accept key is
//! also named as the run's failure rather than as a library's error.

use crate::config::MAX_HEAD_BYTES;
use crate::connection::{
    arrived, connect, read_more, session_ended, ConnectionState, Ended, ThreadContext, READ_BUFFER,
};
use crate::websocket_frames::{
    encode_frame, handshake_refusal, parse_frame, Frame, FrameHead, Masks, MAX_HEADERS, OP_CLOSE,
    OP_CONTINUATION, OP_PING, OP_PONG,
};
use base64::Engine as _;
use ring::rand::SecureRandom;
use std::rc::Rc;
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

/// Close code 1000: normal closure.
const NORMAL_CLOSURE: u16 = 1000;
/// What a message is counted under: the status of the handshake every echo's connection was upgraded with.
pub const UPGRADED: u16 = 101;
/// Why a connection or a frame failed, as the report names it.
pub const UPGRADE_TIMED_OUT: &str =
    "the WebSocket upgrade was not answered within handshakeTimeoutMs";
const MASKED_FRAME: &str = "a WebSocket frame masked by the server";
const MESSAGE_OVER_LIMIT: &str = "a fragmented WebSocket message over bodyLimitBytes";
const STRAY_CONTINUATION: &str =
    "a WebSocket continuation of no message, or a message inside another";
const UNASKED_ECHO: &str = "a WebSocket echo of no message sent";

/// What a connection has read and not yet taken, and a message arriving in fragments.
struct Reader {
    buffer: Vec<u8>,
    filled: usize,
    message: Vec<u8>,
    fragmented: Option<u8>,
}

/// One WebSocket connection, opened again whenever it fails, until the phase ends (it then closes with code 1000),
/// the thread stops it, or the run cannot go on (a handshake refused).
pub async fn connection(context: Rc<ThreadContext>, state: Rc<ConnectionState>) {
    let mut reader = Reader {
        buffer: vec![0u8; READ_BUFFER],
        filled: 0,
        message: Vec::new(),
        fragmented: None,
    };
    let mut out = Vec::new();
    let mut masks = Masks::seeded();
    while !context.closing.get() {
        let Some(mut stream) = connect(&context, &state).await else {
            continue;
        };
        reader.filled = 0;
        reader.fragmented = None;
        match upgrade(&context, &mut stream, &mut reader).await {
            Upgrade::Done => {
                context.negotiated("websocket over http/1.1");
                arrived(&context, &state, true).await;
            }
            Upgrade::Lost => {
                context.stats.borrow_mut().error(1);
                arrived(&context, &state, false).await;
                continue;
            }
            Upgrade::TimedOut => {
                context
                    .stats
                    .borrow_mut()
                    .failed_to_connect(UPGRADE_TIMED_OUT);
                arrived(&context, &state, false).await;
                continue;
            }
            Upgrade::Refused(reason) => {
                context.shared.fail(reason);
                return;
            }
        }
        let ended = echo(
            &context,
            &state,
            &mut stream,
            &mut reader,
            &mut out,
            &mut masks,
        )
        .await;
        session_ended(&context, &state, ended);
    }
}

enum Upgrade {
    Done,
    /// The connection ended before the server answered: counted as an error, connect again.
    Lost,
    /// The server did not answer within the handshake deadline: counted as an error with its reason, connect again.
    TimedOut,
    /// The server answered, but not with the upgrade asked for: the run cannot go on.
    Refused(String),
}

/// The opening handshake: a GET with a fresh key; the answer must be 101 with the upgrade and the key's accept, within the
/// handshake deadline.
async fn upgrade<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    stream: &mut S,
    reader: &mut Reader,
) -> Upgrade {
    tokio::time::timeout(
        context.handshake_timeout,
        ask_upgrade(context, stream, reader),
    )
    .await
    .unwrap_or(Upgrade::TimedOut)
}

async fn ask_upgrade<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    stream: &mut S,
    reader: &mut Reader,
) -> Upgrade {
    let Some(target) = context.target.websocket.as_ref() else {
        unreachable!("protocol ws has its websocket");
    };
    let mut nonce = [0u8; 16];
    let _ = ring::rand::SystemRandom::new().fill(&mut nonce);
    let key = base64::engine::general_purpose::STANDARD.encode(nonce);
    let request = format!(
        "GET {} HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n",
        target.path, target.host
    );
    if stream.write_all(request.as_bytes()).await.is_err() {
        return Upgrade::Lost;
    }
    loop {
        let limit_bytes = context.read_limit_bytes();
        let Some(read) =
            read_more(stream, &mut reader.buffer, &mut reader.filled, limit_bytes).await
        else {
            return Upgrade::Lost;
        };
        reader.filled += read;
        context.stats.borrow_mut().bytes += read as u64;
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut response = httparse::Response::new(&mut headers);
        let head = match response.parse(&reader.buffer[..reader.filled]) {
            Ok(httparse::Status::Complete(head)) if head <= MAX_HEAD_BYTES => head,
            Ok(httparse::Status::Partial) if reader.filled <= MAX_HEAD_BYTES => continue,
            Ok(_) => {
                return Upgrade::Refused(format!(
                    "protocol ws: the server at {} answered the WebSocket handshake on {} with a head over {MAX_HEAD_BYTES} bytes",
                    context.target.address, target.path
                ))
            }
            Err(error) => {
                return Upgrade::Refused(format!(
                    "protocol ws: the server at {} answered the WebSocket handshake on {} with what is not HTTP ({error})",
                    context.target.address, target.path
                ))
            }
        };
        let refused = handshake_refusal(&response, &key).map(|why| {
            format!(
                "protocol ws: the server at {} {why} (the WebSocket handshake on {})",
                context.target.address, target.path
            )
        });
        if let Some(reason) = refused {
            return Upgrade::Refused(reason);
        }
        // Frames the server sent right after its answer stay for the echo loop.
        reader.buffer.copy_within(head..reader.filled, 0);
        reader.filled -= head;
        return Upgrade::Done;
    }
}

/// Keeps `streams` messages in flight until the phase ends (then closes with 1000) or the connection does.
async fn echo<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    state: &ConnectionState,
    stream: &mut S,
    reader: &mut Reader,
    out: &mut Vec<u8>,
    masks: &mut Masks,
) -> Ended {
    let Some(target) = context.target.websocket.as_ref() else {
        unreachable!("protocol ws has its websocket");
    };
    out.clear();
    let mut to_send = context.streams;
    let mut read = 0;
    loop {
        if context.closing.get() {
            close(context, stream, reader, out, masks).await;
            return Ended::Closed;
        }
        let now = Instant::now();
        let (completed, ended) = take_frames(context, state, reader, read, now, out, masks);
        // Each echo sends the next message, unless the connection ends here (then only a pong or a close goes out).
        if ended.is_none() {
            to_send += completed;
            for _ in 0..to_send {
                encode_frame(out, target.opcode, &target.payload, masks.next_key());
            }
            state
                .sent
                .borrow_mut()
                .extend(std::iter::repeat_n(now, to_send));
            to_send = 0;
        }
        if !out.is_empty() {
            let written = stream.write_all(out).await;
            out.clear();
            if written.is_err() {
                return Ended::Failed;
            }
        }
        if let Some(ended) = ended {
            return ended;
        }
        read = tokio::select! {
            read = read_more(stream, &mut reader.buffer, &mut reader.filled, context.read_limit_bytes()) => match read {
                Some(read) => read,
                None => return Ended::Failed,
            },
            _ = context.closing_signal.notified() => 0,
        };
    }
}

/// Takes every whole frame out of what was read: each echo compared with the message and timed against its send,
/// a ping answered (into `out`), the server's close answered. Returns how many echoes came, and why the connection
/// ends, if it does.
fn take_frames(
    context: &ThreadContext,
    state: &ConnectionState,
    reader: &mut Reader,
    read: usize,
    now: Instant,
    out: &mut Vec<u8>,
    masks: &mut Masks,
) -> (usize, Option<Ended>) {
    let Some(target) = context.target.websocket.as_ref() else {
        unreachable!("protocol ws has its websocket");
    };
    let Reader {
        buffer,
        filled,
        message,
        fragmented,
    } = reader;
    *filled += read;
    let mut stats = context.stats.borrow_mut();
    stats.bytes += read as u64;
    let mut sent = state.sent.borrow_mut();
    let (mut start, mut completed, mut ended) = (0, 0, None);
    while start < *filled {
        let frame = match parse_frame(&buffer[start..*filled], context.body_limit_bytes) {
            Frame::Partial => break,
            Frame::Invalid(reason) => {
                stats.invalid(reason);
                ended = Some(Ended::Failed);
                break;
            }
            Frame::Complete(FrameHead { mask: Some(_), .. }) => {
                // A server must never mask (RFC 6455 §5.1).
                stats.invalid(MASKED_FRAME);
                ended = Some(Ended::Failed);
                break;
            }
            Frame::Complete(frame) => frame,
        };
        let payload = &buffer[start + frame.payload.start..start + frame.payload.end];
        start += frame.length;
        let echoed: Option<(u8, &[u8])> = match (frame.opcode, *fragmented) {
            (OP_PING, _) => {
                encode_frame(out, OP_PONG, payload, masks.next_key());
                None
            }
            (OP_PONG, _) => None,
            (OP_CLOSE, _) => {
                // The server closes: answer with its code, and the connection ends.
                encode_frame(
                    out,
                    OP_CLOSE,
                    &payload[..payload.len().min(2)],
                    masks.next_key(),
                );
                ended = Some(if sent.is_empty() {
                    Ended::Closed
                } else {
                    Ended::Failed
                });
                break;
            }
            (OP_CONTINUATION, Some(opcode)) => {
                if message.len().saturating_add(payload.len()) > context.body_limit_bytes {
                    stats.invalid(MESSAGE_OVER_LIMIT);
                    ended = Some(Ended::Failed);
                    break;
                }
                message.extend_from_slice(payload);
                if frame.fin {
                    *fragmented = None;
                    Some((opcode, message.as_slice()))
                } else {
                    None
                }
            }
            (OP_CONTINUATION, None) | (_, Some(_)) => {
                stats.invalid(STRAY_CONTINUATION);
                ended = Some(Ended::Failed);
                break;
            }
            (opcode, None) if frame.fin => Some((opcode, payload)),
            (opcode, None) => {
                message.clear();
                message.extend_from_slice(payload);
                *fragmented = Some(opcode);
                None
            }
        };
        if let Some((opcode, bytes)) = echoed {
            let Some(sent_at) = sent.pop_front() else {
                stats.invalid(UNASKED_ECHO);
                ended = Some(Ended::Failed);
                break;
            };
            let matches = opcode == target.opcode && bytes == target.payload.as_slice();
            stats.response(sent_at, now, UPGRADED, matches);
            completed += 1;
        }
    }
    drop((stats, sent));
    context.count_responses(completed as u64);
    buffer.copy_within(start..*filled, 0);
    *filled -= start;
    (completed, ended)
}

/// The closing handshake at the end of the phase: a close frame with code 1000, then what the server still sends is
/// read (not counted) until its own close frame or the end of the connection; the thread bounds the wait.
async fn close<S: AsyncRead + AsyncWrite + Unpin>(
    context: &ThreadContext,
    stream: &mut S,
    reader: &mut Reader,
    out: &mut Vec<u8>,
    masks: &mut Masks,
) {
    out.clear();
    encode_frame(
        out,
        OP_CLOSE,
        &NORMAL_CLOSURE.to_be_bytes(),
        masks.next_key(),
    );
    if stream.write_all(out).await.is_err() {
        return;
    }
    loop {
        let mut start = 0;
        let limit_bytes = context.body_limit_bytes;
        while let Frame::Complete(frame) =
            parse_frame(&reader.buffer[start..reader.filled], limit_bytes)
        {
            if frame.opcode == OP_CLOSE {
                let _ = stream.shutdown().await;
                return;
            }
            start += frame.length;
        }
        reader.buffer.copy_within(start..reader.filled, 0);
        reader.filled -= start;
        let limit_bytes = context.read_limit_bytes();
        match read_more(stream, &mut reader.buffer, &mut reader.filled, limit_bytes).await {
            Some(read) => reader.filled += read,
            None => return,
        }
    }
}
