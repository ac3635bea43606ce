// @ts-check
// Markdown that dyno writes from data (framework names, versions, reasons, commands) is read where markdown may carry HTML:
// GitHub renders report.md, a job summary and a pull request comment, and HTML there runs as a page's own. dyno's own
// markdown uses no HTML, so every `&`, `<` and `>` of the text becomes an entity, except a blockquote's `>` that opens a
// line (dyno's own notes) and what stands inside a code span, where markdown shows the characters as they are and no
// HTML is read.

/** A code span: a run of backticks, anything, the same run again (CommonMark). */
const CODE_SPAN = /(`+)[\s\S]*?\1/g

/** @param {string} text @returns {string} */
const entities = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * @param {string} markdown a whole document, or a part of one
 * @returns {string} the same, with no HTML left in it
 */
export function inertMarkdown (markdown) {
  return markdown.split('\n').map((line) => {
    const quote = /^(\s*>\s?)+/.exec(line)?.[0] ?? ''
    const rest = line.slice(quote.length)
    let out = ''
    let at = 0
    for (const span of rest.matchAll(CODE_SPAN)) {
      out += entities(rest.slice(at, span.index)) + span[0]
      at = (span.index ?? 0) + span[0].length
    }
    return quote + out + entities(rest.slice(at))
  }).join('\n')
}
