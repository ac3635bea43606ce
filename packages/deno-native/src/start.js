// @ts-check
/// <reference path="./deno.d.ts" />
/* global Deno */
import { announceReady, exitOnSigterm, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { openDenoDataSources } from './data.js'

const { port, host } = listenOptions()
const data = await openDenoDataSources()
exitOnSigterm(data.close)
// onListen replaces Deno's own "Listening on …" line, which would come before the ready line on stdout.
Deno.serve({ port, hostname: host, onListen: ({ port: bound }) => announceReady(bound) }, createApp({ data }))
