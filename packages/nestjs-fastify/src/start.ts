import { openDataSources } from '@dyno/scenarios/data'
import { announceReady, exitOnSigterm, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const data = await openDataSources()
exitOnSigterm(data.close)
const app = await createApp({ data })
await app.listen(port, host)
const address = app.getHttpServer().address()
announceReady(typeof address === 'object' && address ? address.port : port)
