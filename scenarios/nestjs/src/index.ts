// The dyno route contract as one NestJS module. A NestJS SUT passes `AppModule.forRoot({ data })` to
// `NestFactory.create` with its platform adapter; that is all it keeps of its own.
import 'reflect-metadata'

export { AppModule, type AppModuleOptions } from './app.module.js'
export { ContractController } from './contract.controller.js'
export { DATA_SOURCES, type DataSources } from './data-sources.js'
export { ExtraRoutesController } from './extra-routes.controller.js'
export { ValidationQuery } from './validation-query.js'
