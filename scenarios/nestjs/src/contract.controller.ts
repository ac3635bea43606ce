import {
  HELLO_TEXT, errorOrOk, fibonacciResult, helloMessage, routeParams, validationResult
} from '@dyno/scenarios/work'
import {
  Body, Controller, Get, HttpCode, Inject, Param, Post, Query, UsePipes, ValidationPipe
} from '@nestjs/common'
import { DATA_SOURCES, type DataSources } from './data-sources.js'
import { ValidationQuery } from './validation-query.js'

/** The routes of the dyno contract, each calling the shared work function, on any Nest platform. */
@Controller()
export class ContractController {
  /** `data`: the data sources of the database scenarios, the value provider of `AppModule.forRoot({ data })`. */
  constructor (@Inject(DATA_SOURCES) private readonly data: DataSources) {}

  /**
   * The string alone. Fastify labels it `text/plain; charset=utf-8` itself; Nest on Express sends it with
   * `res.send`, which labels it `text/html`, so nestjs-express overrides this route to set the header.
   */
  @Get('plaintext')
  plaintext (): string {
    return HELLO_TEXT
  }

  @Get('json')
  json () {
    return helloMessage()
  }

  @Get('users/:userId/posts/:postId')
  params (@Param('userId') userId: string, @Param('postId') postId: string) {
    return routeParams(userId, postId)
  }

  /** Nest answers POST with 201 by default; the contract wants 200. */
  @Post('echo')
  @HttpCode(200)
  echo (@Body() body: unknown) {
    return body
  }

  @Get('fibonacci')
  fibonacci () {
    return fibonacciResult()
  }

  /** Throws for flag 1: Nest's own exception layer answers 500. */
  @Get('error/:flag')
  error (@Param('flag') flag: string) {
    return errorOrOk(flag)
  }

  @Get('validation')
  @UsePipes(new ValidationPipe({ transform: true }))
  validation (@Query() query: ValidationQuery) {
    return validationResult(query.number, query.text)
  }

  // The database routes return what the data source gives (a promise; `sqliteWorld` returns the row itself).
  // A rejection or a throw reaches Nest's exception layer (500), as on the error route.

  /** One Redis GET. */
  @Get('redis')
  redis () {
    return this.data.redisMessage()
  }

  @Get('sqlite')
  sqlite () {
    return this.data.sqliteWorld()
  }

  @Get('sqlite-async')
  sqliteAsync () {
    return this.data.sqliteAsyncWorld()
  }

  @Get('postgres')
  postgres () {
    return this.data.postgresWorld()
  }

  @Get('postgres-js')
  postgresJs () {
    return this.data.postgresJsWorld()
  }
}
