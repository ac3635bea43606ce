// @ts-check
// report.html's opening: each run's overview (measures/overview.js) as a table coloured by each column's scale, with a heat map drawn
// from it (html/overview-client.js), and the run's warnings grouped by cause, a line each with its count, the results folded below it.
// Every string from data is escaped; the colours are computed from numbers alone.
import { overviewCellText, usedMarks, hasUnmeasured, UNMEASURED_NOTE } from '../../measures/overview-text.js'
import { escapeHtml } from '../../platform/text/html-text.js'

/** A shade of a column's scale as a background: red (its worst) through yellow to green (its best). @param {number | null} shade */
export const shadeColour = (shade) => shade === null ? '#f0f0f0' : `hsl(${Math.round(shade * 120)}, 70%, 82%)`

/**
 * @param {import('../../measures/overview.js').Overview} overview
 * @param {number} index the overview's place in the model's `overviews` (which its heat map draws)
 * @param {string} heading
 * @returns {string}
 */
export function overviewSection (overview, index, heading) {
  const marks = usedMarks(overview)
  const legend = [overview.groups.replace(/`/g, ''), overview.order, ...(overview.costNote ? [`${overview.costNote}.`] : []),
    ...marks.map((mark) => `${mark.mark} ${mark.meaning}.`),
    ...(hasUnmeasured(overview) ? [`${UNMEASURED_NOTE.replace(/`/g, '')}.`] : []),
    'Each column is coloured on its own scale, green its best figure, red its worst.']
  return `<section id="overview-${index}" class="overview">
<h2>${escapeHtml(heading)}</h2>
<table class="overview"><thead><tr><th>framework</th><th>version</th>${overview.columns.map((column) =>
    `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead><tbody>
${overview.rows.map((row) => `<tr><th>${escapeHtml(row.framework)}</th><td>${escapeHtml(row.version)}</td>${row.cells.map((cell) =>
    `<td class="figure" style="background: ${shadeColour(cell?.shade ?? null)}">${escapeHtml(overviewCellText(cell))}</td>`)
    .join('')}</tr>`).join('\n')}
</tbody></table>
<p class="note">${escapeHtml(legend.join(' '))}</p>
${overview.caveats.map((caveat) => `<p class="caveat">${escapeHtml(caveat.replace(/`/g, ''))}.</p>`).join('\n')}
<div class="heatmap" id="heatmap-${index}" data-overview="${index}"></div>
</section>`
}

/**
 * The warnings of one run or several, a line per cause with its count, the results it stands for folded below it.
 * @param {{ label: string | null, groups: import('../../measures/warning-groups.js').WarningGroup[] }[]} runs label: null for one run
 * @returns {string}
 */
export function warningsSection (runs) {
  const groups = runs.flatMap(({ label, groups: own }) =>
    own.map((group) => ({ ...group, line: label ? `${label}: ${group.line}` : group.line })))
  return `<section id="warnings">
<h2>Warnings</h2>
${groups.length === 0
    ? '<p>None: every result was ok, undisturbed and consistent with itself.</p>'
    : groups.map((group) => `<details class="warning"><summary>${escapeHtml(group.line)}</summary>
<ul>${group.details.map((detail) => `<li>${escapeHtml(detail)}</li>`).join('')}</ul>
</details>`).join('\n')}
</section>`
}
