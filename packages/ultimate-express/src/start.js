// @ts-check
import { createRequire } from 'node:module'
import { announceReady, listenOptions, openDataSourcesUntilSigterm } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { isUwsNative } from './uws-native.js'

const { port, host } = listenOptions()
// The uWebSockets.js that counts is the one ultimate-express itself loads.
const uwsNative = isUwsNative(createRequire(import.meta.url).resolve('ultimate-express'))
const data = await openDataSourcesUntilSigterm()
// ultimate-express calls back with the bound port (read with uWS.us_socket_local_port), not an error.
createApp({ data }).listen(port, host, (boundPort) => { announceReady(boundPort, { uwsNative }) })
