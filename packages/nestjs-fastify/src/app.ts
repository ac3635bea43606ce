import 'reflect-metadata'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'
import { type DynamicModule, Module } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'
import { ContractController } from './contract.controller.js'
import { DATA_SOURCES, type DataSources } from './data-sources.js'
import { ExtraRoutesController } from './extra-routes.controller.js'

@Module({ controllers: [ContractController, ExtraRoutesController] })
export class AppModule {
  /** The module with `data` as the value provider of `DATA_SOURCES`, which `ContractController` injects. */
  static forRoot (data: DataSources): DynamicModule {
    return { module: AppModule, providers: [{ provide: DATA_SOURCES, useValue: data }] }
  }
}

/**
 * Builds the Nest application on the Fastify platform with the whole dyno contract; it is not listening yet.
 * `data`: the data sources of the database scenarios (none by default: those routes then answer 500).
 */
export async function createApp ({ data = NO_DATA_SOURCES }: { data?: DataSources } = {}): Promise<NestFastifyApplication> {
  return NestFactory.create<NestFastifyApplication>(AppModule.forRoot(data), new FastifyAdapter(), { logger: false })
}
