import { startServer } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

await startServer(createApp)
