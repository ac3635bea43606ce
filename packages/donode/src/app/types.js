// @ts-check
// The request and response donode hands to a controller method: node's own objects, which donode
// patches (request.params/query/body, response.send/reject) on their prototypes.

/**
 * @typedef {import('node:http').IncomingMessage & {
 *   params: Record<string, string>,
 *   query: Record<string, string | string[] | undefined>,
 *   body: unknown
 * }} DonodeRequest
 *
 * @typedef {import('node:http').ServerResponse & {
 *   send: (statusOrData: unknown, data?: unknown) => void,
 *   reject: (statusOrError: unknown, error?: unknown) => void
 * }} DonodeResponse
 */

export {}
