// @ts-check

/** @param {unknown} text @returns {string} the text as HTML: every character that could open markup, an attribute or an entity escaped */
export const escapeHtml = (text) => String(text ?? '').replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
