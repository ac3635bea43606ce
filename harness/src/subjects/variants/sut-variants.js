// @ts-check
// The variants of dyno's own SUT packages: an entry names a SUT (`express`: as its package pins its framework) or a variant of its
// framework (`express@4.21.2`, `fastify@^4`, `koa@latest`, `fastify@path:../fastify`), installed into a cached copy of the SUT package.
import { resolve } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { invalidOption } from '../../platform/options/option-parsers.js'
import { discoverSuts } from '../suts/discover-suts.js'
import { selectSuts } from '../suts/select.js'
import { parseFrameworkEntry } from './framework-entry.js'
import { checkedPathManifest } from './resolve-variant.js'
import { couldBeVersion, variantOrigin } from './variant-source.js'
import { selectWithVariants, variantPathBase } from './variant-subjects.js'

/** @type {import('./variant-source.js').VariantSource} */
export const SUT_VARIANTS = Object.freeze({
  pair: 'two variants of one SUT (`express@4.21.2 express@5.3.0`, `fastify fastify@path:../fastify`)',
  check (entries, flag, raw = entries.join(',')) {
    const catalogue = discoverSuts()
    selectSuts(catalogue, [...new Set(entries.map((entry) => parseFrameworkEntry(entry).name))])
    const varied = catalogue.filter((candidate) => candidate.runtimeKind === 'node' && !candidate.framework.startsWith('node:'))
      .map((candidate) => candidate.name)
    const allowed = 'a SUT, or a SUT of an npm framework with `@<version>`, `@<range>`, `@<dist-tag>` or `@path:<dir>` ' +
      `(${varied.join(', ')})`
    for (const entry of entries.map(parseFrameworkEntry)) {
      if (!entry.spec) continue
      const sut = /** @type {import('../suts/discover-suts.js').SutDescriptor} */ (catalogue.find((one) => one.name === entry.name))
      if (!varied.includes(sut.name)) {
        throw new DynoError('DYNO_ERR_UNKNOWN_VERSION', `\`${flag}\` \`${entry.text}\`: ${sut.name} has no framework package to vary ` +
          `(its framework is ${sut.framework}${sut.runtimeKind === 'node' ? '' : `, on ${sut.runtimeKind}`}); allowed: ${allowed}`)
      }
      if (entry.spec.kind === 'path') {
        if (entry.spec.path.trim() === '') throw invalidOption(flag, raw, `${allowed}; \`${entry.text}\` names no directory`)
        checkedPathManifest(entry.text, sut.framework, entry.spec.path, resolve(variantPathBase(), entry.spec.path))
      } else if (!couldBeVersion(entry.spec.text)) {
        throw invalidOption(flag, raw, `${allowed}; \`${entry.spec.text}\` is neither a version, a range nor a dist-tag`)
      }
    }
  },
  select: (entries, options) => selectWithVariants(discoverSuts(), entries, options),
  labelOf (records, entry) {
    return records.find((record) => record.sut.variant?.entry === entry)?.sut.variant?.label ?? parseFrameworkEntry(entry).name
  },
  describe (records, entry) {
    const variant = records.find((record) => record.sut.variant?.entry === entry)?.sut.variant
    if (!variant) {
      const record = records.find((candidate) => candidate.sut.name === entry)
      return `${entry}: the SUT's own ${record?.sut.framework ?? ''} ${record?.sut.frameworkVersion ?? ''}`.trim()
    }
    return `${variant.label}: ${variantOrigin(variant)}`
  }
})
