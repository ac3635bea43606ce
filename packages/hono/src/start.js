// @ts-check
import { serve } from '@hono/node-server'
import { announceReady, listenOptions, openDataSourcesUntilSigterm } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const data = await openDataSourcesUntilSigterm()
serve({ fetch: createApp({ data }).fetch, port, hostname: host }, (info) => announceReady(info.port))
