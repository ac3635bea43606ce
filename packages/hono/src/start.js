// @ts-check
import { serve } from '@hono/node-server'
import { openDataSources } from '@dyno/scenarios/data'
import { announceReady, exitOnSigterm, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const data = await openDataSources()
exitOnSigterm(data.close)
serve({ fetch: createApp({ data }).fetch, port, hostname: host }, (info) => announceReady(info.port))
