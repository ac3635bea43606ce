// @ts-check
/**
 * The protocols a scenario is spoken in, one entry each: what the SUT is asked to serve for it (the `PROTOCOL` its start reads),
 * whether that needs the run's certificate, and the ALPN protocol a client offers. The harness and the SUT start helpers derive what
 * they need from here.
 * @typedef {'http1' | 'tls' | 'h2' | 'h2c'} ServedProtocol a value of `PROTOCOL`: what one SUT process serves on its port
 * @typedef {object} Protocol
 * @property {string} summary
 * @property {ServedProtocol} serves what the SUT's process serves for a scenario of this protocol
 * @property {boolean} tls whether the SUT needs `TLS_CERT_FILE` and `TLS_KEY_FILE`
 * @property {string | null} alpn the ALPN protocol negotiated on the TLS connection; null: cleartext
 * @property {boolean} streams whether a connection keeps several exchanges in flight at once as the protocol's own (HTTP/2's streams,
 *   WebSocket's messages), the number `--streams` sets; otherwise HTTP/1.1, which pipelines instead
 * @property {'request' | 'message'} exchange what one exchange under load is, and what req/s and latency count: a request and its
 *   response, or a message and its echo (msg/s, latency per message)
 */

/** @type {Readonly<Record<'http1' | 'tls' | 'h2' | 'h2c' | 'ws', Readonly<Protocol>>>} */
export const PROTOCOLS = Object.freeze({
  http1: Object.freeze({ summary: 'HTTP/1.1 in cleartext', serves: 'http1', tls: false, alpn: null, streams: false, exchange: 'request' }),
  tls: Object.freeze({ summary: 'HTTP/1.1 over TLS 1.3', serves: 'tls', tls: true, alpn: 'http/1.1', streams: false, exchange: 'request' }),
  h2: Object.freeze({
    summary: 'HTTP/2 over TLS 1.3, negotiated with ALPN `h2`', serves: 'h2', tls: true, alpn: 'h2', streams: true, exchange: 'request'
  }),
  h2c: Object.freeze({
    summary: 'HTTP/2 in cleartext with prior knowledge (no upgrade ' +
      'from HTTP/1.1)',
    serves: 'h2c',
    tls: false,
    alpn: null,
    streams: true,
    exchange: 'request'
  }),
  // WebSocket is served by the plain HTTP/1.1 server, at its own path, beside the routes of every other scenario.
  ws: Object.freeze({
    summary: 'WebSocket (RFC 6455) upgraded from HTTP/1.1 ' +
      'in cleartext',
    serves: 'http1',
    tls: false,
    alpn: null,
    streams: true,
    exchange: 'message'
  })
})

/** @typedef {keyof typeof PROTOCOLS} ProtocolName */

/** Every value of `PROTOCOL` a SUT can be asked for, `http1` (its default) first. */
export const SERVED_PROTOCOLS = Object.freeze(
  /** @type {ServedProtocol[]} */ ([...new Set(Object.values(PROTOCOLS).map((protocol) => protocol.serves))])
)
