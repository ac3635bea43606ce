// @ts-check
import { defineConfig } from '@adonisjs/core/bodyparser'

/** The body parser settings: AdonisJS's defaults (JSON, form, raw and multipart parsers). */
const bodyParserConfig = defineConfig({})

export default bodyParserConfig
