// @ts-check
import { readdirSync, readFileSync } from 'node:fs'

/**
 * Processes still alive that one of the given runs started: the harness marks every SUT and load
 * generator with DYNO_RUN_ID, so this finds them even after they were orphaned. Zombies are dead.
 * @param {string[]} runIds
 * @returns {{ pid: number, command: string }[]}
 */
export function processesOfRuns (runIds) {
  const markers = runIds.map((runId) => `DYNO_RUN_ID=${runId}\0`)
  const found = []
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8') + '\0'
      if (!markers.some((marker) => environ.includes(marker))) continue
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
      if (state === 'Z') continue
      found.push({ pid, command: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() })
    } catch {
      // The process ended while we looked: not a leftover.
    }
  }
  return found
}

/**
 * Collects the run ids a test file produces and checks, after the file, that none left a process.
 * @returns {{ add: (runId: string) => string, expectNoneLeft: (expect: (value: unknown) => { toEqual: (other: unknown) => void }) => void
 *   }}
 */
export function trackRuns () {
  /** @type {string[]} */
  const runIds = []
  return {
    add: (runId) => { runIds.push(runId); return runId },
    expectNoneLeft: (expect) => {
      if (runIds.length === 0) throw new Error('no run was tracked: the leftover check would prove nothing')
      expect(processesOfRuns(runIds)).toEqual([])
    }
  }
}
