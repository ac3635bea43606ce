// @ts-check
// The requests an autocannon client has in flight, as they change: what the windows need for their time in flight (Little's law,
// exactly). autocannon 9 says when a request is sent ('request') and answered ('response'), but not when a connection's
// requests are lost: a connection the server ended, or that failed, is opened again with the requests of the old one still in
// the client's queue of pipelined requests (a later response then takes the oldest of them). Nor does it wait for a connection:
// it writes its first requests into the socket while it is still connecting. So this follows the client itself, through the
// hook autocannon gives every client before it connects (`setupClient`): each request queued on an open connection is one more
// in flight (one queued while connecting counts from the connection's opening, as the native engine's, which sends only then:
// a connection stuck connecting carries no request), each response one fewer, and a connection (re)opened or a queue cleared (a
// timeout, the end) leaves none of the old ones in flight.

/**
 * @typedef {object} AutocannonClient the part of autocannon 9's client (lib/httpClient.js) this follows
 * @property {() => void} _connect opens the connection (`conn`) and queues `pipelining` requests on it
 * @property {() => void} destroy ends the client at the end of the phase (or when it is stopped)
 * @property {import('node:net').Socket} conn
 * @property {{ insertRequest: (request: unknown) => void, terminateRequest: () => unknown, clear: () => void }} pipelinedRequests
 */

/**
 * @param {AutocannonClient} client
 * @param {(delta: number) => void} changed called with each change of the client's number of requests in flight
 * @param {{ opened: () => void, ending: () => void }} edges opened: a connection of the client opened (the first one of
 *   any client is where the load starts: autocannon builds all its clients before any I/O, a quarter of a second for 100);
 *   ending: the client is ended, before its requests are dropped (the load stops there)
 */
export function trackRequestsInFlight (client, changed, { opened, ending }) {
  let inFlight = 0
  /** Requests queued while the connection is still connecting. */
  let waiting = 0
  const set = (/** @type {number} */ count) => {
    if (count !== inFlight) changed(count - inFlight)
    inFlight = count
  }
  const queue = client.pipelinedRequests
  const insert = queue.insertRequest.bind(queue)
  const terminate = queue.terminateRequest.bind(queue)
  const clear = queue.clear.bind(queue)
  const connect = client._connect.bind(client)
  const destroy = client.destroy.bind(client)
  queue.insertRequest = (request) => {
    insert(request)
    if (client.conn?.connecting) waiting += 1
    else set(inFlight + 1)
  }
  queue.terminateRequest = () => {
    set(Math.max(0, inFlight - 1))
    return terminate()
  }
  queue.clear = () => {
    waiting = 0
    set(0)
    clear()
  }
  client._connect = () => {
    waiting = 0
    set(0)
    connect()
    const conn = client.conn
    conn.once('connect', () => {
      if (client.conn !== conn) return
      opened()
      set(inFlight + waiting)
      waiting = 0
    })
  }
  client.destroy = () => {
    ending()
    destroy()
  }
}
