// @ts-check
import { randomBytes } from 'node:crypto'

/**
 * A run id that sorts by time and does not collide: the UTC start time plus a short random suffix,
 * e.g. `2026-11-22T05-01-09Z-3fa2c1`.
 * @param {Date} [now]
 */
export function createRunId (now = new Date()) {
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-')
  return `${stamp}-${randomBytes(3).toString('hex')}`
}
