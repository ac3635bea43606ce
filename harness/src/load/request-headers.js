// @ts-check
import { DynoError } from '../platform/errors.js'

/**
 * A plan's headers as the lines an engine writes itself (`Name: value`), without those the engine computes
 * (Content-Length from the body; Host from the URL where the engine writes it). A name or value that would break
 * the request's framing (a line break, a colon in a name) is refused, naming the engine and the header.
 * @param {Record<string, string>} headers
 * @param {string} engine
 * @param {string[]} computed lower-case names the engine writes itself
 * @returns {string[]}
 */
export function headerLines (headers, engine, computed) {
  return Object.entries(headers)
    .filter(([name]) => !computed.includes(name.toLowerCase()))
    .map(([name, value]) => {
      if (/[\r\n:]/.test(name) || /[\r\n]/.test(value)) {
        throw new DynoError('DYNO_ERR_INVALID_OPTION', `${engine} engine: the header \`${name}\` cannot be sent as given`)
      }
      return `${name}: ${value}`
    })
}
