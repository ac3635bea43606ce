// @ts-check
// A run's warnings at the end of `dyno run`: one line per cause with its count (measures/warning-groups.js), wrapped to the terminal's
// width; the results each stands for only with `--verbose` (report.md and report.html always have them).

/**
 * @param {import('../../measures/warning-groups.js').WarningGroup[]} groups
 * @param {{ width: number, verbose: boolean }} options
 * @returns {string[]} no line wider than the width; none when there is nothing to warn of
 */
export function warningLines (groups, { width, verbose }) {
  if (groups.length === 0) return []
  const fit = (/** @type {string} */ line, /** @type {string} */ indent) => {
    const lines = ['']
    // A unit stays with its figure (`10 %`).
    const words = line.split(' ').reduce((kept, word) => word === '%' && kept.length > 0
      ? [...kept.slice(0, -1), `${kept[kept.length - 1]} %`]
      : [...kept, word], /** @type {string[]} */ ([]))
    for (const word of words) {
      const last = lines[lines.length - 1]
      if (last.trim().length > 0 && last.length + 1 + word.length > width) lines.push(`${indent}  ${word}`)
      else lines[lines.length - 1] = last.length === 0 ? `${indent}${word}` : `${last} ${word}`
    }
    return lines
  }
  return [
    `warnings${verbose ? '' : ' (each result: report.md, or --verbose)'}:`,
    ...groups.flatMap((group) => [...fit(group.line, '  '), ...(verbose ? group.details.flatMap((detail) => fit(detail, '      ')) : [])])
  ]
}
