// @ts-check
import { openDataSources } from '@dyno/scenarios/data'
import { announceReady, exitOnSigterm, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const data = await openDataSources()
exitOnSigterm(data.close)
const server = createApp({ data }).listen(port, host, (error) => {
  if (error) throw error
  const address = server.address()
  announceReady(typeof address === 'object' && address ? address.port : port)
})
