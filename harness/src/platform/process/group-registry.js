// @ts-check
// Every process group dyno starts (SUTs, load generators, services) is registered here until it is gone,
// so that nothing dyno started can outlive it: a second Ctrl-C kills them at once, and so does dyno's exit.

/** @type {Set<number>} the pgids of groups started and not yet seen gone */
const groups = new Set()

/** @param {number} pgid */
function groupGone (pgid) {
  try {
    process.kill(-pgid, 0)
    return false
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'ESRCH'
  }
}

/**
 * Registers a child spawned with `detached: true` (the leader of its own group) until its group is gone.
 * @param {import('node:child_process').ChildProcess} child
 */
export function registerProcessGroup (child) {
  const pgid = child.pid
  if (pgid === undefined) return
  groups.add(pgid)
  child.once('exit', () => { if (groupGone(pgid)) groups.delete(pgid) })
}

/** @param {number} pgid a group that has been seen gone */
export function forgetProcessGroup (pgid) {
  groups.delete(pgid)
}

/** SIGKILL to every registered group still alive; synchronous, so it also works in an `exit` handler. */
export function killProcessGroups () {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL')
    } catch {
      // ESRCH: already gone. EPERM cannot happen for a group dyno started.
    }
    groups.delete(pgid)
  }
}

/** How many registered groups are still alive (for the tests and for reporting a forced stop). */
export function liveProcessGroupCount () {
  for (const pgid of groups) if (groupGone(pgid)) groups.delete(pgid)
  return groups.size
}

// The last line of defence: whatever way dyno ends (an uncaught error included), its groups end with it.
process.on('exit', killProcessGroups)
