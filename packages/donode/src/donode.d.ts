// donode ships no type declarations: the part of its API this SUT uses (donode 1.0.0-beta.8, index.js).
declare module 'donode' {
  import type { RequestListener } from 'node:http'

  interface DonodeConfig {
    appRoot: string
    appDir: string
    controllerDir: string
    middlewareDir: string
    envDir: string
    publicDir: string
    environment?: string
  }

  interface DonodeRoute {
    path: string
    method?: string
    handler?: string
    middleware?: string[]
    headers?: string[]
    children?: DonodeRoute[]
  }

  const donodeModule: {
    donode: {
      create (options: { config: DonodeConfig, routes: DonodeRoute[], headers?: Record<string, unknown> }): {
        listener: RequestListener
        hostname: string | undefined
        port: number | string
        config: Record<string, unknown>
      }
    }
    Controller: new () => object
  }
  export = donodeModule
}
