// @ts-check
import { defineConfig } from '@adonisjs/core/logger'

/** Logging off: the one logger is disabled. */
const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: { enabled: false, name: 'dyno-adonisjs', level: 'info' }
  }
})

export default loggerConfig
