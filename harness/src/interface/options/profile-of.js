// @ts-check
import { LOAD_PROFILES } from '@dyno/scenarios'

/**
 * @param {import('../../platform/options/option-spec.js').OptionValues} values the values of a command's options so far
 * @returns {import('@dyno/scenarios').LoadProfile} the load profile they name
 */
export const profileOf = (values) => LOAD_PROFILES[/** @type {keyof typeof LOAD_PROFILES} */ (values.profile)]
