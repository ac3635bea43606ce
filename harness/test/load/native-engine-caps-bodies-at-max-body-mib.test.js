// @ts-check
// The native engine's cap on a response body is dyno's option `--max-body-mib`: a value outside whole MiB from 1 to 1024 is refused
// before anything starts, naming the value and what is allowed, and the value given reaches the engine through its settings, as a run
// loads (runLoadedPhase): a body of 1.5 MiB is an invalid response, named, under `--max-body-mib 1`, and an answer read and checked
// (a wrong body, here) under `--max-body-mib 2`.
import { afterAll, describe, expect, it } from 'vitest'
import { nativeEngine } from '../../src/load/engines/native/native-descriptor.js'
import { MAX_BODY_MIB_OPTION } from '../../src/load/engines/native/native-options.js'
import { runLoadedPhase } from '../../src/load/loaded-phase.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { planFor } from '../support/engine-under-test.js'
import { trackRuns } from '../support/leftover-processes.js'
import { startLyingServer } from '../support/lying-servers.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'
import { withServer } from '../support/with-server.js'

const runs = trackRuns()
const absent = missing('native')
const BODY_BYTES = 1.5 * 1024 * 1024

/**
 * The measured phase of the native engine against a server whose every answer is a 200 of BODY_BYTES, loaded as a run loads it with
 * `--max-body-mib` as typed.
 * @param {string} maxBodyMib @returns {Promise<import('../../src/load/engines/native/native-report.js').NativePhaseSummary>}
 */
async function measuredWithCap (maxBodyMib) {
  const answer = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`), Buffer.alloc(BODY_BYTES, 'x')])
  const engineSettings = nativeEngine.settingsOf({ maxBodyMib: MAX_BODY_MIB_OPTION.parse(maxBodyMib, '--max-body-mib') })
  return withServer(startLyingServer(answer), async (server) => {
    const { phases } = await runLoadedPhase({
      engine: nativeEngine,
      engineSettings,
      plan: planFor(server.port, 'json', { connections: 2 }),
      generatorCpus: null,
      loadHosts: null,
      env: runEnv(runs.add(`body-cap-${maxBodyMib}-${Math.random().toString(16).slice(2, 8)}`)),
      signal: new AbortController().signal,
      stopWhen: null,
      sampling: null
    })
    return /** @type {any} */ (phases.measure)
  })
}

describe('--max-body-mib', () => {
  it('is refused outside whole MiB from 1 to 1024, naming the value, before anything starts', async () => {
    for (const bad of ['0', '1025', '1.5', 'lots']) {
      const { code, stderr } = await runCli(['run', '--engine', 'native', '--max-body-mib', bad, '--plan'])
      expect(code).toBe(2)
      expect(stderr).toContain(`DYNO_ERR_INVALID_OPTION: \`--max-body-mib\` must be a whole number from 1 to 1024, got \`${bad}\``)
    }
  })

  it('is recorded as the engine\'s own setting, 16 MiB when not given', () => {
    expect(nativeEngine.settingsOf({})).toEqual({ maxBodyMib: 16 })
    expect(nativeEngine.options).toContain(MAX_BODY_MIB_OPTION)
  })

  describe.skipIf(absent)(`reaches the native engine${skipNote(absent)}`, () => {
    it('counts a body past the cap as an invalid response, named', async () => {
      const summary = await measuredWithCap('1')
      expect(summary.requests).toBe(0)
      expect(summary.invalidResponses).toBeGreaterThan(0)
      expect(summary.failureReasons).toEqual({ 'a Content-Length over bodyLimitBytes': summary.invalidResponses })
    }, 30_000)

    it('reads and checks a body within the cap', async () => {
      const summary = await measuredWithCap('2')
      expect(summary.invalidResponses).toBe(0)
      expect(summary.requests).toBeGreaterThan(0)
      expect(summary.mismatches).toBe(summary.requests)
    }, 30_000)
  })

  afterAll(() => runs.expectNoneLeft(expect))
})
