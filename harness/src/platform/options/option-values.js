// @ts-check

/**
 * @typedef {Readonly<{ measure: string, warmupSec: number, durationSec: number } & Record<string, unknown>>} PlanValues what a plan's
 *   expected times are worked out from: the run's load settings, or the parsed options they are made from (each measure reads its own
 *   fields)
 */

export {}
