// @ts-check
import { DynoError } from '../../platform/errors.js'
import { readSide } from './read-inputs.js'

/**
 * The two sides of a comparison of variants of one SUT measured in one run (`dyno compare-versions`): each side the results of
 * one variant, labelled with the SUT's name so that the two sides' rows meet.
 * @param {string} runDir
 * @param {{ baseline: string, candidate: string }} labels each variant's label (`express@4.21.2`; the SUT's name for its own pin)
 * @returns {{ baseline: import('./read-inputs.js').Side, candidate: import('./read-inputs.js').Side }}
 */
export function variantSides (runDir, labels) {
  const all = readSide('baseline', [runDir])
  const side = (/** @type {'baseline' | 'candidate'} */ name) => {
    const label = labels[name]
    const records = all.records
      .filter(({ record }) => (record.sut.variant?.label ?? record.sut.name) === label)
      .map(({ record, file }) => {
        const sut = { ...record.sut, label: (record.sut.label ?? record.sut.name).replace(label, record.sut.name) }
        return { file, record: { ...record, sut } }
      })
    if (records.length === 0) {
      throw new DynoError('DYNO_ERR_COMPARE_INPUT', `${name}: the run ${runDir} has no result of ${label}; it has ` +
        `${[...new Set(all.records.map(({ record }) => record.sut.label))].join(', ')}`)
    }
    return { ...all, name, records }
  }
  return { baseline: side('baseline'), candidate: side('candidate') }
}
