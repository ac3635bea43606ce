import { AppModule, type DataSources } from '@dyno/scenarios-nestjs'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'

/**
 * Builds the Nest application on the Fastify platform with the whole dyno contract; it is not listening yet.
 * `data`: the data sources of the database scenarios (none by default: those routes then answer 500).
 */
export async function createApp ({ data }: { data?: DataSources } = {}): Promise<NestFastifyApplication> {
  return NestFactory.create<NestFastifyApplication>(AppModule.forRoot({ data }), new FastifyAdapter(), { logger: false })
}
