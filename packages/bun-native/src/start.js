// @ts-check
/// <reference path="./bun.d.ts" />
import { serve } from 'bun'
import { announceReady, exitOnSigterm, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { openBunDataSources } from './data.js'

const { port, host } = listenOptions()
const data = await openBunDataSources()
exitOnSigterm(data.close)
const server = serve({ ...createApp({ data }), port, hostname: host })
announceReady(server.port)
