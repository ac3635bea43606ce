// @ts-check

/** @param {string} text @returns {string} a markdown table cell: no pipes, no line breaks */
export const markdownCell = (text) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
