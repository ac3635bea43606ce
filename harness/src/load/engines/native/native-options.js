// @ts-check
// The native engine's own options (engine.js: `options`, read back by `settingsOf`), which every command that runs an engine takes.
import { wholeNumber } from '../../../platform/options/option-parsers.js'

/** The longest response body (or WebSocket message) the engine takes when `--max-body-mib` is not given: the contract's are a few KB. */
export const DEFAULT_MAX_BODY_MIB = 16
/** The engine's own bound on its cap (engines/native/src/config.rs: MAX_BODY_LIMIT_BYTES, 1 GiB). */
const MAX_MAX_BODY_MIB = 1024
const BYTES_PER_MIB = 1024 * 1024

/** @type {import('../../../platform/options/option-spec.js').OptionSpec} */
export const MAX_BODY_MIB_OPTION = {
  field: 'maxBodyMib',
  flag: '--max-body-mib <n>',
  description: 'With --engine native: the longest response body (or WebSocket message) it takes, in MiB; a longer one is an invalid ' +
    'response, counted with its reason, and not read further',
  parse: wholeNumber({ min: 1, max: MAX_MAX_BODY_MIB }),
  default: DEFAULT_MAX_BODY_MIB
}

/**
 * What the native engine's options set, as a result records it beside the run's load.
 * @param {import('../../../platform/options/option-spec.js').OptionValues} values
 * @returns {{ maxBodyMib: number }}
 */
export const nativeSettingsOf = (values) => ({ maxBodyMib: /** @type {number} */ (values.maxBodyMib ?? DEFAULT_MAX_BODY_MIB) })

/**
 * The body cap the engine is told, in bytes.
 * @param {import('../engine.js').EngineSettings | undefined} settings its settings (`nativeSettingsOf`); absent: its options' defaults
 * @returns {number}
 */
export const bodyLimitBytesOf = (settings) => Number(settings?.maxBodyMib ?? DEFAULT_MAX_BODY_MIB) * BYTES_PER_MIB
