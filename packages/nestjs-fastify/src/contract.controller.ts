import {
  HELLO_TEXT, errorOrOk, fibonacciResult, helloMessage, routeParams, validationResult
} from '@dyno/scenarios/work'
import {
  Body, Controller, Get, HttpCode, Param, Post, Query, UsePipes, ValidationPipe
} from '@nestjs/common'
import { ValidationQuery } from './validation-query.js'

/** The routes of the dyno contract, each calling the shared work function. */
@Controller()
export class ContractController {
  /** Fastify labels a returned string `text/plain; charset=utf-8` itself. */
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
}
