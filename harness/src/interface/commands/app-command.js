// @ts-check
// `dyno app init [dir]`: a dyno.config.yaml for a service of one's own, from its OpenAPI document or as a starter.
import { resolve } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { initAppConfig } from '../../subjects/apps/app-init.js'
import { OPENAPI, START } from '../options/app-options.js'

/** What `dyno app` does. */
export const APP_ACTIONS = ['init']

/** @type {import('../cli/command.js').Command} */
export const APP_COMMAND = {
  name: 'app',
  args: ['<action>', '[dir]'],
  summary: 'init: write dyno.config.yaml for your own service in dir (the current directory by default): a scenario per operation of ' +
    'its OpenAPI document (--openapi), or a starter to fill in; then `dyno verify --app dir` (docs/app.md)',
  options: [OPENAPI, START],
  run: async ({ positionals: [action, dir], options }, io) => {
    if (!APP_ACTIONS.includes(action)) {
      throw new DynoError('DYNO_ERR_INVALID_OPTION', `\`dyno app\` does ${APP_ACTIONS.join(', ')}, got \`${action}\``)
    }
    const cwd = process.env.INIT_CWD || process.cwd()
    const written = initAppConfig(resolve(cwd, dir ?? '.'), options.values)
    io.stdout.write(`wrote ${written.file}: ${written.scenarios.length} scenario(s): ${written.scenarios.join(', ')}\n`)
    for (const { operation, why } of written.skipped) io.stdout.write(`  no scenario for ${operation}: ${why}\n`)
    return 0
  }
}
