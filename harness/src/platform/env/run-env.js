// @ts-check
/**
 * The environment variable that marks every process a run starts (SUTs, load generators), so that
 * a leftover process can always be traced to its run, even after it was orphaned.
 * @param {string} runId
 * @returns {{ DYNO_RUN_ID: string }}
 */
export function runEnv (runId) {
  return { DYNO_RUN_ID: runId }
}
