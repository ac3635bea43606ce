import { AppModule, ContractController, type DataSources } from '@dyno/scenarios-nestjs'
import { Controller, Get, Header } from '@nestjs/common'
import type { HttpsOptions } from '@nestjs/common/interfaces/external/https-options.interface.js'
import { NestFactory } from '@nestjs/core'
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express'

/**
 * The contract's routes, but `GET /plaintext` sets its content type: Nest on Express sends a returned string with
 * `res.send`, which labels it `text/html`; the contract expects `text/plain`.
 */
@Controller()
class ExpressContractController extends ContractController {
  @Get('plaintext')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  override plaintext (): string {
    return super.plaintext()
  }
}

/**
 * Builds the Nest application on the Express platform with the whole dyno contract; it is not listening yet.
 * `data`: the data sources of the database scenarios (none by default: those routes then answer 500); `httpsOptions`: serve HTTP/1.1
 * over TLS, Nest's own option (a node:https server).
 */
export async function createApp (
  { data, httpsOptions }: { data?: DataSources, httpsOptions?: HttpsOptions } = {}
): Promise<NestExpressApplication> {
  const appModule = AppModule.forRoot({ data, contractController: ExpressContractController })
  const options = { logger: false as const, ...(httpsOptions ? { httpsOptions } : {}) }
  return NestFactory.create<NestExpressApplication>(appModule, new ExpressAdapter(), options)
}
