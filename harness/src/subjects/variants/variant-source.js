// @ts-check
// What the entries of `--frameworks` and compare-versions' two arguments vary, chosen once with the run's subjects (subject-catalogue.js):
// a SUT's framework (sut-variants.js) or a dependency of the service given by --app (apps/app-variants.js). Each checks its entries,
// turns them into subjects (variants resolved, then installed into cached copies), and says what a variant's results are called and
// where it came from.
import semver from 'semver'

/**
 * @typedef {{ sut: { name: string, framework: string, frameworkVersion: string | null,
 *   variant?: import('./variant-subjects.js').Variant | null } }} VariedRecord what a source reads of a result
 * @typedef {{ cacheDir: string, install?: boolean, signal?: AbortSignal, onLine?: (entry: string, line: string) => void }} SelectOptions
 *   install false: resolve only (`--plan`), the subjects as they are standing in for the copies
 *
 * @typedef {object} VariantSource
 * @property {string} pair two variants of one thing, with examples, as compare-versions' message names them
 * @property {(entries: string[], flag: string, raw?: unknown) => void} check judges the entries as typed (raw: the option's value, for
 *   messages), before the registry is asked
 *   (throws DYNO_ERR_UNKNOWN_FRAMEWORK, DYNO_ERR_UNKNOWN_VERSION or DYNO_ERR_INVALID_OPTION, naming the entry and what is allowed)
 * @property {(entries: string[], options: SelectOptions) => Promise<import('../suts/discover-suts.js').SutDescriptor[]>} select the
 *   subjects the entries name, in their order; a variant that could not be installed is a subject with its `installFailure`
 * @property {(records: VariedRecord[], entry: string) => string} labelOf what the results of an entry are called
 * @property {(records: VariedRecord[], entry: string) => string} describe where an entry's subject came from
 */

/** @param {string} spec after `@` @returns {boolean} whether it could be a version, a range or a dist-tag */
export const couldBeVersion = (spec) => Boolean(semver.valid(spec) || semver.validRange(spec) || /^[a-z][a-z0-9._-]*$/i.test(spec))

/** @param {import('./variant-subjects.js').Variant} variant @returns {string} where a registry's version came from */
export const fromRegistry = (variant) => `${variant.spec} from the registry, ${variant.integrity?.slice(0, 19) ?? 'no integrity'}…`

/** @param {import('./variant-subjects.js').Variant} variant @returns {string} where it came from: the registry, or a checkout */
export const variantOrigin = (variant) => variant.kind === 'npm'
  ? fromRegistry(variant)
  : `${variant.dir} at ${variant.commit ? variant.commit.slice(0, 12) : 'no git commit'}${variant.dirty ? ' with uncommitted changes' : ''}`
