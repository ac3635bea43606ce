// @ts-check
// What a report says of a run that `dyno merge` put together from the parts of a split plan.

/**
 * What a report says over every table and chart of a run merged from parts measured on machines that differ
 * (`dyno merge --allow-mixed-machines`): its figures are not one machine's. Null for every other run.
 * @param {any} index run.json
 * @returns {string | null}
 */
export function mixedMachinesNote (index) {
  /** @type {{ property: string, values: { name: string, value: string }[] }[] | null | undefined} */
  const differences = index?.merged?.mixedMachines
  if (!differences || differences.length === 0) return null
  return `Mixed machines: the parts of this run were measured on machines that differ (${differences.map(({ property, values }) =>
    `${property}: ${values.map(({ name, value }) => `${value} in ${name.replace(/ \(.*\)$/, '')}`).join(', ')}`).join('; ')}), ` +
    'so its figures are not one machine\'s.'
}

/**
 * Where a merged run's results came from: each part of the split plan, its cells and wall time. Null for every other run.
 * @param {any} index run.json
 * @returns {string | null}
 */
export function mergedPartsLine (index) {
  /** @type {{ shard: string, cells: number, wallSec: number | null }[] | undefined} */
  const parts = index?.merged?.parts
  if (!parts) return null
  return `${parts.length} part${parts.length === 1 ? '' : 's'} of plan ${index.plan?.id ?? '?'}: ` +
    parts.map((part) => `${part.shard} ${part.cells} cells${part.wallSec === null ? '' : ` in ${Math.round(part.wallSec)} s`}`).join(', ')
}
