// @ts-check
import { expect, it } from 'vitest'
import { formatCpuList, parseCpuList } from '../../src/platform/pinning/cpu-list.js'
import { parsePin } from '../../src/platform/pinning/parse-pin.js'
import { pinnedSpawnArgs } from '../../src/platform/process/pinned-spawn.js'
import { resolvePinning } from '../../src/platform/pinning/resolve-pinning.js'

const TWO = [0, 1]
const FOUR = [0, 1, 2, 3]

it('reads and writes cpu lists as Linux does', () => {
  expect(parseCpuList('0')).toEqual([0])
  expect(parseCpuList('0-2,5')).toEqual([0, 1, 2, 5])
  expect(parseCpuList('2,0')).toEqual([0, 2])
  expect(parseCpuList('1-0')).toBeNull()
  expect(parseCpuList('a')).toBeNull()
  expect(parseCpuList('')).toBeNull()
  expect(formatCpuList([0, 1, 2, 5])).toBe('0-2,5')
  expect(formatCpuList([2, 0])).toBe('0,2')
})

it('accepts auto, off and two disjoint sets of this machine\'s cpus', () => {
  expect(parsePin('auto', '--pin', TWO)).toEqual({ mode: 'auto' })
  expect(parsePin('off', '--pin', TWO)).toEqual({ mode: 'off' })
  expect(parsePin('sut=0,gen=1', '--pin', TWO)).toEqual({ mode: 'explicit', sutCpus: [0], generatorCpus: [1] })
  expect(parsePin('gen=3,sut=0-1', '--pin', FOUR)).toEqual({ mode: 'explicit', sutCpus: [0, 1], generatorCpus: [3] })
  expect(parsePin('sut=0,2,gen=1,3', '--pin', FOUR)).toEqual({ mode: 'explicit', sutCpus: [0, 2], generatorCpus: [1, 3] })
})

it.each([
  ['on', /`--pin` must be `auto`, `off` or `sut=<cpus>,gen=<cpus>` .* from this machine's cpus 0-1, got `on`/],
  ['sut=0', /both `sut=` and `gen=` are needed, got `sut=0`/],
  ['sut=0,cpu=1', /`cpu=` is not one of `sut=`, `gen=`, got `sut=0,cpu=1`/],
  ['sut=0,gen=2', /names cpu 2, which is not one of this machine's cpus \(0-1\), got `sut=0,gen=2`/],
  ['sut=0-1,gen=1', /gives cpu 1 to both the SUT and the load generator; the two sets must not overlap \(cpus 0-1\), got `sut=0-1,gen=1`/],
  ['sut=,gen=1', /must be `auto`.*, got `sut=,gen=1`/],
  ['sut=1-0,gen=1', /must be `auto`.*, got `sut=1-0,gen=1`/],
  ['sut=0,sut=1,gen=1', /names `sut=` twice/],
  [true, /must be `auto`.*, got `true`/]
])('rejects %s with a message naming the value and what is allowed', (raw, message) => {
  expect(() => parsePin(raw, '--pin', TWO)).toThrow(
    expect.objectContaining({ code: 'DYNO_ERR_INVALID_OPTION', message: expect.stringMatching(message) })
  )
})

it('pins auto on Linux with taskset: the SUT on its fixed allotment of cpus, the generator on every other', () => {
  const linux = { platform: /** @type {NodeJS.Platform} */ ('linux'), tasksetPath: '/usr/bin/taskset' }
  expect(resolvePinning({ mode: 'auto' }, { ...linux, cpus: TWO }))
    .toEqual({ mode: 'auto', pinned: true, sutCpus: [0], generatorCpus: [1], reason: null, sutCpuAllotment: 1 })
  // The same SUT allotment on a bigger machine; the generator gets the rest.
  expect(resolvePinning({ mode: 'auto' }, { ...linux, cpus: FOUR })).toMatchObject({ sutCpus: [0], generatorCpus: [1, 2, 3] })
  expect(resolvePinning({ mode: 'auto' }, { ...linux, cpus: FOUR }, { sutCpus: 2 }))
    .toMatchObject({ sutCpus: [0, 1], generatorCpus: [2, 3], sutCpuAllotment: 2 })
  // A machine too small for the allotment keeps one cpu for the generator, and the plan says what was asked.
  expect(resolvePinning({ mode: 'auto' }, { ...linux, cpus: TWO }, { sutCpus: 4 })).toMatchObject({
    sutCpus: [0],
    generatorCpus: [1],
    sutCpuAllotment: 4
  })
  expect(resolvePinning({ mode: 'auto' }, { ...linux, cpus: [0] }))
    .toMatchObject({ pinned: false, reason: expect.stringMatching(/two cpus or more; dyno may use 1 \(0\)/) })
  expect(resolvePinning({ mode: 'auto' }, { ...linux, cpus: TWO, tasksetPath: null }))
    .toMatchObject({ pinned: false, reason: expect.stringMatching(/`taskset` on PATH/) })
  expect(resolvePinning({ mode: 'auto' }, { platform: 'darwin', cpus: FOUR, tasksetPath: null }))
    .toMatchObject({ pinned: false, reason: expect.stringMatching(/needs Linux \(this is darwin\)/) })
  expect(resolvePinning({ mode: 'off' }, { ...linux, cpus: TWO }))
    .toEqual({ mode: 'off', pinned: false, sutCpus: null, generatorCpus: null, reason: '`--pin off`' })
  expect(resolvePinning({ mode: 'explicit', sutCpus: [1], generatorCpus: [0] }, { ...linux, cpus: TWO }))
    .toMatchObject({ pinned: true, sutCpus: [1], generatorCpus: [0] })
  expect(() => resolvePinning({ mode: 'explicit', sutCpus: [0], generatorCpus: [1] }, { ...linux, cpus: TWO, tasksetPath: null }))
    .toThrow(expect.objectContaining({
      code: 'DYNO_ERR_INVALID_OPTION', message: expect.stringMatching(/`--pin sut=0,gen=1` cannot be honoured: pinning needs `taskset`/)
    }))
})

it('prefixes a pinned command with taskset and leaves an unpinned one alone', () => {
  expect(pinnedSpawnArgs('node', ['start.js'], [0])).toEqual({ command: 'taskset', args: ['-c', '0', 'node', 'start.js'] })
  expect(pinnedSpawnArgs('node', ['start.js'], [0, 1, 3])).toEqual({ command: 'taskset', args: ['-c', '0-1,3', 'node', 'start.js'] })
  expect(pinnedSpawnArgs('node', ['start.js'], null)).toEqual({ command: 'node', args: ['start.js'] })
})
