import { AppModule, type DataSources } from '@dyno/scenarios-nestjs'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'

/** Fastify's own options of the server for a protocol other than HTTP/1.1 in cleartext, which the Fastify adapter passes on. */
export interface ServerOptions { https?: object, http2?: true }

/**
 * Builds the Nest application on the Fastify platform with the whole dyno contract; it is not listening yet.
 * `data`: the data sources of the database scenarios (none by default: those routes then answer 500); `server`: Fastify's server
 * options for TLS (`https`) and HTTP/2 (`http2`), given to the FastifyAdapter.
 */
export async function createApp ({ data, server }: { data?: DataSources, server?: ServerOptions } = {}): Promise<NestFastifyApplication> {
  const adapter = server ? new FastifyAdapter(server as ConstructorParameters<typeof FastifyAdapter>[0]) : new FastifyAdapter()
  return NestFactory.create<NestFastifyApplication>(AppModule.forRoot({ data }), adapter, { logger: false })
}
