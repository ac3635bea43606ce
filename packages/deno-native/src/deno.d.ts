// The part of Deno's API this SUT uses, typed for the repository's `tsc`, which runs with Node's types only.

declare namespace Deno {
  interface ServeOptions {
    port?: number
    hostname?: string
    /** Serve over TLS: the certificate and its key, PEM. */
    cert?: string
    key?: string
    /** Called once listening; without it Deno prints "Listening on …" to stdout. */
    onListen?: (address: { hostname: string, port: number }) => void
    /** Answers a thrown error; without it Deno answers 500 and prints the error. */
    onError?: (error: unknown) => Response | Promise<Response>
  }
  interface HttpServer {
    readonly finished: Promise<void>
    shutdown (): Promise<void>
  }
  function serve (options: ServeOptions, handler: (request: Request) => Response | Promise<Response>): HttpServer
  /** Upgrades a request to WebSocket: the socket, and the response to answer the request with. */
  function upgradeWebSocket (request: Request): { socket: WebSocket, response: Response }
}

/** The URL Pattern standard (Deno has it built in; @types/node 20 does not declare it). */
declare class URLPattern {
  constructor (input: { pathname: string })
  exec (input: { pathname: string }): { pathname: { groups: Record<string, string | undefined> } } | null
}

declare module 'node:sqlite' {
  export interface StatementSync {
    get (...params: unknown[]): unknown
  }
  export class DatabaseSync {
    constructor (path: string, options?: { readOnly?: boolean })
    prepare (sql: string): StatementSync
    close (): void
  }
}
