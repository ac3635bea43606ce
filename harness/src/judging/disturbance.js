// @ts-check
// Whether something other than the SUT and the load generator took a share of their cpus while a cell was measured: a disturbed
// cell measured the machine's other work as much as the framework. The threshold and why: docs/measuring.md, "A disturbed cell".

/**
 * The share of the SUT's or the generator's cpus (other programs plus the hypervisor's steal) above which a measured phase is
 * disturbed, in %. From the data of this machine (docs/measuring.md): in a default `pnpm bench` on the quiet machine the measured
 * phases' worst share was a few percent; a busy loop on either cpu takes about half of it; a `pnpm install` beside the run 20–60 %.
 */
export const DISTURBED_SHARE_PCT = 10

/** The names of the measured roles' cpus, for a line a user reads. */
const ROLE_NAMES = /** @type {const} */ ({ sut: "the SUT's", generator: "the load generator's", machine: 'the machine\'s' })

/**
 * @typedef {object} Disturbance the verdict on one measured phase
 * @property {number} thresholdPct
 * @property {boolean} disturbed
 * @property {number} worstSharePct the highest share taken from a measured role's cpus (others + steal)
 * @property {string | null} detail what disturbed it, for a user: which cpus, how much, by whom
 *
 * @typedef {object} EarlierAttempt a measurement of the cell that was disturbed and measured again
 * @property {number} requestsPerSec
 * @property {string | null} detail
 * @property {string} [withBlockOf] it was not disturbed itself: measured again with its block, of which this cell was
 *
 * @typedef {Disturbance & { earlierAttempts: EarlierAttempt[] }} InterferenceVerdict what a result records
 */

/**
 * @param {import('../platform/resources/interference-sampler.js').InterferenceReport | null | undefined} report of the measured phase
 * @param {number} thresholdPct
 * @returns {Disturbance | null} null: nothing was read (no /proc/stat, or no measured phase)
 */
export function judgeDisturbance (report, thresholdPct = DISTURBED_SHARE_PCT) {
  if (!report) return null
  const taken = Object.entries(report.roles).map(([role, share]) => ({ role, share, pct: takenPct(share) }))
  const worst = taken.reduce((a, b) => (b.pct > a.pct ? b : a), taken[0])
  const disturbed = worst !== undefined && worst.pct > thresholdPct
  return {
    thresholdPct,
    disturbed,
    worstSharePct: Math.round((worst?.pct ?? 0) * 10) / 10,
    detail: disturbed ? describeDisturbance(report, taken.filter((entry) => entry.pct > thresholdPct)) : null
  }
}

/** The roles whose cpus the SUT runs on: its own where it is pinned, every cpu of the machine where it is not. */
const SUT_ROLES = Object.freeze(['sut', 'machine'])

/**
 * Whether a phase judged disturbed was disturbed on the SUT's own cpus. A request's cpu cost is the SUT's own cpu time over its own
 * requests: where only the load generator's cpus were taken, the SUT answered fewer requests, but each cost it what it costs in a clean
 * phase (measured: docs/measuring.md, "A disturbed cell"), so its cost counts as a clean phase's does.
 * @param {Disturbance | null | undefined} verdict the phase's (a result's `interference`)
 * @param {import('../platform/resources/interference-sampler.js').InterferenceReport | null | undefined} report the phase's shares (a
 *   result's `summary.interference`); absent: which cpus were taken is not known, and a disturbed phase counts as disturbed on them
 * @returns {boolean}
 */
export function sutCpusDisturbed (verdict, report) {
  if (verdict?.disturbed !== true) return false
  if (!report) return true
  return Object.entries(report.roles).some(([role, share]) => SUT_ROLES.includes(role) && takenPct(share) > verdict.thresholdPct)
}

/**
 * What other programs and the hypervisor took of a role's cpus, in %.
 * @param {import('../platform/resources/interference-sampler.js').CpuSetShare} share
 */
const takenPct = (share) => share.othersPct + share.stealPct

/**
 * "cpu 0 (the SUT's): 49.5 % taken by other processes (pid 4242 `sh` 49.3 %)"
 * @param {import('../platform/resources/interference-sampler.js').InterferenceReport} report
 * @param {{ role: string, share: import('../platform/resources/interference-sampler.js').CpuSetShare, pct: number }[]} roles over the
 *   threshold
 * @returns {string}
 */
export function describeDisturbance (report, roles) {
  return roles.map(({ role, share }) => {
    // Each process's share of these cpus: what it took on each, over their number.
    const who = report.top
      .map((entry) => ({ entry, pct: share.cpus.reduce((sum, cpu) => sum + (entry.pctOfCpu[String(cpu)] ?? 0), 0) / share.cpus.length }))
      .filter(({ pct }) => pct >= 0.5)
      .map(
        ({ entry, pct }) =>
          `pid ${entry.pid} \`${whoIs(entry)}\`${entry.user ? ` of user ${entry.user}` : ''} ${Math.round(pct * 10) / 10} %`
      )
    if (share.unnamedPct >= 0.5) who.push(`short-lived processes ${share.unnamedPct} %`)
    const parts = [
      share.othersPct > 0 ? `${share.othersPct} % taken by other processes${who.length > 0 ? ` (${who.join(', ')})` : ''}` : null,
      share.stealPct > 0 ? `${share.stealPct} % stolen by the hypervisor` : null
    ].filter(Boolean)
    const name = ROLE_NAMES[/** @type {keyof typeof ROLE_NAMES} */ (role)] ?? role
    return `cpu ${share.cpus.join(',')} (${name}): ${parts.join(', ')}`
  }).join('; ')
}

/**
 * What a process of the census is called in a line: its arguments when the run recorded them (`--census-args on`), else its
 * executable's name; a result written before names had its command line.
 * @param {import('../platform/resources/interference-sampler.js').OtherProcess & { command?: string }} entry
 */
const whoIs = (entry) => entry.args ?? entry.name ?? entry.command ?? '?'

/** How often one cell is measured again while it stays disturbed: once after the plan, and once more after the first pass. */
export const REMEASURES_PER_CELL = 2
/**
 * The share of a run's cells that may be measured again: on a machine busy for the whole run, re-measuring every cell would
 * triple the run and change nothing; past it, disturbed cells are kept and marked. A fifth of the default plan's 384 cells is
 * about two minutes at most.
 */
export const REMEASURE_SHARE_OF_PLAN = 0.2
/** The re-measurements even a small run may make: 16 cells of the default profile are half a minute. */
export const REMEASURES_AT_LEAST = 16

/**
 * The re-measurements a run may make: REMEASURE_SHARE_OF_PLAN of its cells, at least REMEASURES_AT_LEAST.
 * @param {number} cells @returns {{ take: () => boolean, readonly used: number, readonly limit: number }}
 */
export function remeasureBudget (cells) {
  const limit = Math.max(REMEASURES_AT_LEAST, Math.ceil(cells * REMEASURE_SHARE_OF_PLAN))
  let used = 0
  return {
    take: () => used < limit && ++used > 0,
    get used () { return used },
    limit
  }
}
