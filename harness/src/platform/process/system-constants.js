// @ts-check
import { execFileSync } from 'node:child_process'

/** What Linux almost always reports; used when `getconf` cannot be asked. */
const FALLBACK_CLOCK_TICKS_PER_SEC = 100
const FALLBACK_PAGE_SIZE_BYTES = 4096

/** @type {Map<string, number>} */
const cache = new Map()

/**
 * One `getconf` variable as a positive whole number, asked once per process.
 * @param {string} name
 * @param {number} fallback
 */
function getconf (name, fallback) {
  const cached = cache.get(name)
  if (cached !== undefined) return cached
  let value = fallback
  try {
    const parsed = Number(execFileSync('getconf', [name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).trim())
    if (Number.isInteger(parsed) && parsed > 0) value = parsed
  } catch {
    // no getconf: keep the fallback
  }
  cache.set(name, value)
  return value
}

/** @returns {number} the unit of utime/stime in /proc/<pid>/stat (USER_HZ, `getconf CLK_TCK`) */
export const clockTicksPerSec = () => getconf('CLK_TCK', FALLBACK_CLOCK_TICKS_PER_SEC)

/** @returns {number} the unit of /proc/<pid>/statm (`getconf PAGESIZE`) */
export const pageSizeBytes = () => getconf('PAGESIZE', FALLBACK_PAGE_SIZE_BYTES)
