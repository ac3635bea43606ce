// @ts-check
import { expect, it } from 'vitest'
import { generatorBound, phaseResourceFigures } from '../../src/platform/resources/resource-figures.js'
import { cpuCost, requestsPerCpuSecOf } from '../../src/platform/resources/cpu-cost.js'

it('divides responses by the CPU seconds the SUT used, and gives null without CPU time', () => {
  const perCpuSec = (/** @type {number} */ requests, /** @type {number} */ cpuSec) =>
    requestsPerCpuSecOf(cpuCost({ requests, cpuSec, wallSec: 10, sutCores: 1, cpuSource: 'proc' }).cpuUsPerRequest)
  expect(perCpuSec(100_000, 8)).toBe(12_500)
  expect(perCpuSec(1000, 3)).toBe(333.3)
  expect(perCpuSec(1000, 0)).toBeNull()
  expect(perCpuSec(1000, Number.NaN)).toBeNull()
})

it('calls the generator the bottleneck from 90 % of one core, or of the fewer cores it is pinned to', () => {
  expect(generatorBound({ cpuSec: 9.5, wallSec: 10, allottedCores: 1 })).toEqual({ generatorBound: true, generatorCpuPct: 95 })
  expect(generatorBound({ cpuSec: 8.9, wallSec: 10, allottedCores: 1 })).toEqual({ generatorBound: false, generatorCpuPct: 89 })
  expect(generatorBound({ cpuSec: 9, wallSec: 10, allottedCores: 1 }).generatorBound).toBe(true)
  // autocannon is one JavaScript thread: more cores do not raise its allotment above one.
  expect(generatorBound({ cpuSec: 9.5, wallSec: 10, allottedCores: 4 })).toEqual({ generatorBound: true, generatorCpuPct: 95 })
  // a CPU quota of half a core
  expect(generatorBound({ cpuSec: 4.6, wallSec: 10, allottedCores: 0.5 })).toEqual({ generatorBound: true, generatorCpuPct: 46 })
  // a multi-threaded generator (wrk -t2) on two cores is bound at 1.8 cores, not at 0.9
  expect(generatorBound({ cpuSec: 9.5, wallSec: 10, allottedCores: 2, generatorThreads: 2 })).toEqual({
    generatorBound: false,
    generatorCpuPct: 95
  })
  expect(generatorBound({ cpuSec: 18, wallSec: 10, allottedCores: 2, generatorThreads: 2 }).generatorBound).toBe(true)
  expect(generatorBound({ cpuSec: 1, wallSec: 0, allottedCores: 1 })).toEqual({ generatorBound: false, generatorCpuPct: 0 })
})

it('calls a busy generator the bottleneck below 90 % too when the pinned SUT was left idle (partial saturation)', () => {
  expect(generatorBound({ cpuSec: 8.7, wallSec: 10, allottedCores: 1, sutShare: 0.55 }).generatorBound).toBe(true)
  expect(generatorBound({ cpuSec: 8.7, wallSec: 10, allottedCores: 1, sutShare: 0.97 }).generatorBound).toBe(false)
  // A SUT waiting on its database leaves cpu idle, but a generator far from busy did not set the pace.
  expect(generatorBound({ cpuSec: 3, wallSec: 10, allottedCores: 1, sutShare: 0.3 }).generatorBound).toBe(false)
  // Unpinned, the SUT's share is unknown: only the 90 % rule applies.
  expect(generatorBound({ cpuSec: 8.7, wallSec: 10, allottedCores: 1, sutShare: null }).generatorBound).toBe(false)
})

it('gives a phase its efficiency and the generator verdict from the phase\'s resource report', () => {
  /** @param {number} cpuSec */
  const target = (cpuSec) => ({
    scope: /** @type {const} */ ('process'),
    id: 1,
    durationSec: 10,
    cpuUserSec: cpuSec,
    cpuSystemSec: 0,
    cpuSec,
    cpuPctMean: cpuSec * 10,
    peakRssBytes: 1,
    maxProcesses: 1,
    samples: []
  })
  const report = {
    intervalMs: 250,
    clockTicksPerSec: 100,
    startedAtMs: 0,
    stoppedAtMs: 10_000,
    targets: { sut: target(8), generator: target(9.6) }
  }
  expect(phaseResourceFigures(report, { requests: 80_000, generatorCores: 1, sutHostCores: 2 })).toEqual({
    resources: report,
    cpuCost: {
      cpuUsPerRequest: 100,
      cpuSec: 8,
      cpuSource: 'proc',
      excludes: ['steal', 'other processes'],
      sutCores: 2,
      sutCpuSharePct: 40,
      cpuBound: false,
      speedProbe: null
    },
    requestsPerCpuSec: 10_000,
    generatorBound: true,
    generatorCpuPct: 96,
    generatorHeadroomPct: 4
  })
  const withoutGenerator = { ...report, targets: { sut: target(8) } }
  expect(phaseResourceFigures(withoutGenerator, { requests: 80_000, generatorCores: 1, sutHostCores: 1 })).toMatchObject({
    generatorBound: false,
    generatorCpuPct: null
  })
})
