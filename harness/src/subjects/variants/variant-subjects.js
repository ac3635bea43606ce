// @ts-check
// The SUTs `--frameworks` names, with the variants of their frameworks: every variant resolved first (a version that does not
// exist stops the run before anything is installed), then each installed into its own cached copy. A variant whose install
// fails is still a subject: its rows are `failed` with the installer's last lines, and the run goes on.
import { isDynoError } from '../../platform/errors.js'
import { loadSut } from '../suts/discover-suts.js'
import { selectSuts } from '../suts/select.js'
import { parseFrameworkEntry, variantLabel } from './framework-entry.js'
import { createRegistryFacts } from './registry-facts.js'
import { resolveNpmVariant, resolvePathVariant } from './resolve-variant.js'
import { installVariant } from './variant-workspace.js'

/**
 * @typedef {import('./resolve-variant.js').ResolvedVariant & { entry: string, label: string, lockfile?: string | null }} Variant what a
 *   result records of a variant; lockfile: a service's variant (--app), the lockfile its copy was installed with (null: none)
 */

/**
 * Where a relative `path:` is taken from: the directory the user typed the command in (pnpm runs scripts from the
 * repository's root and says where it was called from in INIT_CWD).
 */
export const variantPathBase = () => process.env.INIT_CWD || process.cwd()

/**
 * @param {import('../suts/discover-suts.js').SutDescriptor[]} catalogue every SUT
 * @param {string[]} entries `--frameworks` as parsed
 * @param {{ cacheDir: string, install?: boolean, signal?: AbortSignal, onLine?: (entry: string, line: string) => void }} options
 *   install false: resolve only (`--plan`), the SUTs' own packages standing in for the copies
 * @returns {Promise<import('../suts/discover-suts.js').SutDescriptor[]>} in the order given
 */
export async function selectWithVariants (catalogue, entries, { cacheDir, install = true, signal, onLine = () => {} }) {
  const parsed = entries.map(parseFrameworkEntry)
  const suts = selectSuts(catalogue, [...new Set(parsed.map((entry) => entry.name))])
  const sutOf = (/** @type {string} */ name) =>
    /** @type {import('../suts/discover-suts.js').SutDescriptor} */ (suts.find((sut) => sut.name === name))
  const registry = createRegistryFacts({ signal })
  const resolved = await Promise.all(parsed.map(async (entry) => {
    if (!entry.spec) return null
    const sut = sutOf(entry.name)
    const variant = entry.spec.kind === 'npm'
      ? await resolveNpmVariant(entry.text, sut.framework, entry.spec.text, { signal, registry })
      : await resolvePathVariant(entry.text, sut.framework, entry.spec.path, variantPathBase())
    return { ...variant, entry: entry.text, label: variantLabel(entry.name, variant) }
  }))
  const selected = []
  for (const [index, entry] of parsed.entries()) {
    const sut = sutOf(entry.name)
    const variant = resolved[index]
    if (!variant) {
      selected.push(sut)
      continue
    }
    const described = { ...sut, label: variant.label, variant, frameworkVersion: variant.version }
    if (!install) {
      selected.push(described)
      continue
    }
    try {
      const { dir } = await installVariant({ sut, resolved: variant, cacheDir, signal, onLine: (line) => onLine(entry.text, line) })
      selected.push({ ...loadSut(dir), label: variant.label, variant })
    } catch (error) {
      if (!isDynoError(error) || error.code !== 'DYNO_ERR_VARIANT_INSTALL') throw error
      selected.push({ ...described, installFailure: `the variant ${entry.text} could not be installed: ${error.message}` })
    }
  }
  return selected
}
