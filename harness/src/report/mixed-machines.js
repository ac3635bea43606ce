// @ts-check

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
