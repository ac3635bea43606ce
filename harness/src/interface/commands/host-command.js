// @ts-check
// `dyno host prepare <host>`: the one thing a host needs before dyno runs there (for a host reached over SSH, a checkout of dyno).
import { DynoError } from '../../platform/errors.js'
import { kindOf, parseHost } from '../../platform/hosts/host-kinds.js'

/** What `dyno host` does. */
export const HOST_ACTIONS = ['prepare']

/**
 * @param {string} action @param {string} url
 * @param {import('../cli/io.js').Io} io
 * @returns {Promise<number>}
 */
export async function hostCommand (action, url, io) {
  if (!HOST_ACTIONS.includes(action)) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION', `\`dyno host\` does ${HOST_ACTIONS.join(', ')}, got \`${action}\``)
  }
  const target = parseHost(url, 'dyno host prepare <url>')
  const { prepare } = kindOf(target)
  if (!prepare) {
    io.stdout.write(`${target.url}: nothing to prepare, dyno runs there as it is\n`)
    return 0
  }
  const startedAt = performance.now()
  const { commit, dir, lacks } = await prepare(target, (line) => io.stderr.write(`${line}\n`))
  io.stdout.write(
    `${target.url}: dyno ${commit.slice(0, 12)} installed in ${dir} in ${Math.round((performance.now() - startedAt) / 1000)} s\n`
  )
  for (const line of lacks) io.stdout.write(`  lacks ${line}\n`)
  return 0
}

/** @type {import('../cli/command.js').Command} */
export const HOST_COMMAND = {
  name: 'host',
  args: ['<action>', '<url>'],
  summary: 'prepare ssh://[user@]host[:port][/dir]: put this commit of dyno on a host (in dir, `~/dyno` by default), install it there ' +
    'and say what the host lacks; `dyno run --sut-host` then runs SUTs there (docs/hosts.md)',
  options: [],
  run: ({ positionals: [action, url] }, io) => hostCommand(action, url, io)
}
