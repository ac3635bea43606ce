// @ts-check
import { serve } from '@hono/node-server'
import { announceReady, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
serve({ fetch: createApp().fetch, port, hostname: host }, (info) => announceReady(info.port))
