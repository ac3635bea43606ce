// @ts-check
/** Where every SUT that serves WebSocket upgrades a GET, on its HTTP/1.1 server; its work is to send each message back as it came. */
export const WEBSOCKET_PATH = '/ws'
