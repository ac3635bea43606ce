// @ts-check
/**
 * Short names for runs set side by side: what tells them apart (the runtime, the Node version, the
 * commit), falling back to the run id. One run needs no name beyond its id.
 * @param {import('./read-run.js').RunData[]} runs
 * @returns {string[]}
 */
export function runLabels (runs) {
  if (runs.length === 1) return [runs[0].index.runId]
  const candidates = [
    (/** @type {import('./read-run.js').RunData} */ run) =>
      [
        ...new Set(run.records.map((record) => (record.sut.runtime === 'node' ? `node ${record.sut.runtimeVersion}` : record.sut.runtime)))
      ].join('+'),
    (/** @type {import('./read-run.js').RunData} */ run) => `Node ${run.index.env.node}`,
    (/** @type {import('./read-run.js').RunData} */ run) => `commit ${String(run.index.env.git.commit ?? 'unknown').slice(0, 8)}`
  ]
  for (const candidate of candidates) {
    const labels = runs.map(candidate)
    if (new Set(labels).size === runs.length) return labels
  }
  return runs.map((run) => run.index.runId)
}
