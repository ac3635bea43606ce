// The part of Bun's API this SUT uses, typed for the repository's `tsc`, which runs with Node's types only
// (bun-types would add Bun's versions of every web global to the whole program).

declare module 'bun' {
  /** The request a `routes` handler gets: a Fetch API Request plus the route's path parameters. */
  export interface BunRequest extends Request {
    readonly params: Record<string, string>
  }
  export type RouteHandler = (request: BunRequest, server: Server) => Response | undefined | Promise<Response | undefined>
  export type RouteMethods = Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', RouteHandler>>
  export interface ServeOptions {
    port?: number
    hostname?: string
    /** Bun's router: path patterns (`:name` parameters) to a handler per method. */
    routes?: Record<string, RouteHandler | RouteMethods>
    /** The fallback for requests no route matches; without it Bun answers 404. */
    fetch?: (request: Request) => Response | Promise<Response>
    /** Answers a thrown error; without it Bun answers 500 and prints the error. */
    error?: (error: Error) => Response | Promise<Response>
    /** The handlers of the WebSocket connections a route upgrades with `server.upgrade(request)`. */
    websocket?: WebSocketHandler
    /** Serve over TLS: the certificate and its key, PEM. */
    tls?: { cert: string | Uint8Array, key: string | Uint8Array }
  }
  export interface ServerWebSocket {
    send (message: string | Uint8Array): number
  }
  export interface WebSocketHandler {
    message (socket: ServerWebSocket, message: string | Uint8Array): void
  }
  export interface Server {
    readonly port: number
    /** Upgrades the request to WebSocket; false when it is not an upgrade. */
    upgrade (request: Request): boolean
    stop (closeActiveConnections?: boolean): Promise<void>
  }
  export function serve (options: ServeOptions): Server
}

declare module 'bun:sqlite' {
  export interface Statement {
    get (...params: unknown[]): unknown
  }
  export class Database {
    constructor (filename: string, options?: { readonly?: boolean, create?: boolean })
    prepare (sql: string): Statement
    close (): void
  }
}
