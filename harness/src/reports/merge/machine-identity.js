// @ts-check
// What must match between the machines of the parts of one plan: each part's machine as its measure describes it (measure.merging), and
// the properties on which they differ.

/**
 * The properties on which machines differ, with each part's value; a part that does not have a property (a runtime none of its
 * cells ran on) differs from none.
 * @param {{ name: string, machine: Record<string, string> }[]} parts
 * @returns {{ property: string, values: { name: string, value: string }[] }[]}
 */
export function machineDifferences (parts) {
  const properties = [...new Set(parts.flatMap((part) => Object.keys(part.machine)))]
  return properties
    .map((property) => ({
      property,
      values: parts.filter((part) => property in part.machine).map((part) => ({ name: part.name, value: part.machine[property] }))
    }))
    .filter(({ values }) => new Set(values.map((entry) => entry.value)).size > 1)
}
