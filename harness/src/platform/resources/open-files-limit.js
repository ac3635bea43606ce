// @ts-check
// How many files (sockets included) this process may hold open: RLIMIT_NOFILE's soft limit and the hard limit it may be raised to, which
// the SUTs and the load engines dyno starts here inherit. Node raises its own soft limit to the hard one as it starts.
import { readFileSync } from 'node:fs'

/**
 * @returns {{ soft: number, hard: number } | null} null: not readable here (no /proc); Infinity: unlimited
 */
export function openFilesLimit () {
  let text
  try {
    text = readFileSync('/proc/self/limits', 'utf8')
  } catch {
    return null
  }
  const line = text.split('\n').find((entry) => entry.startsWith('Max open files'))
  const [soft, hard] = (line ?? '').replace('Max open files', '').trim().split(/\s+/)
  const number = (/** @type {string | undefined} */ value) => value === 'unlimited' ? Infinity : Number(value)
  if (!soft || !hard || Number.isNaN(number(soft)) || Number.isNaN(number(hard))) return null
  return { soft: number(soft), hard: number(hard) }
}
