import 'reflect-metadata'
import { Module } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'
import { ContractController } from './contract.controller.js'
import { ExtraRoutesController } from './extra-routes.controller.js'

@Module({ controllers: [ContractController, ExtraRoutesController] })
export class AppModule {}

/** Builds the Nest application on the Fastify platform with the whole dyno contract; it is not listening yet. */
export async function createApp (): Promise<NestFastifyApplication> {
  return NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { logger: false })
}
