// @ts-check
import { announceReady, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const server = createApp().listen(port, host, () => {
  const address = server.address()
  announceReady(typeof address === 'object' && address ? address.port : port)
})
