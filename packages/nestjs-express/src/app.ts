import 'reflect-metadata'
import { Module } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express'
import { ContractController } from './contract.controller.js'
import { ExtraRoutesController } from './extra-routes.controller.js'

@Module({ controllers: [ContractController, ExtraRoutesController] })
export class AppModule {}

/** Builds the Nest application on the Express platform with the whole dyno contract; it is not listening yet. */
export async function createApp (): Promise<NestExpressApplication> {
  return NestFactory.create<NestExpressApplication>(AppModule, new ExpressAdapter(), { logger: false })
}
