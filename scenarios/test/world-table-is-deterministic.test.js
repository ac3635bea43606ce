// @ts-check
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  WORLD_ROW_COUNT,
  WORLD_ROW_RULE,
  WORLD_SEED_SQL_POSTGRES,
  isWorldRow,
  randomNumberFor,
  randomWorldId,
  worldRows
} from '../src/data/world.js'
import { BODY_CHECKS } from '../src/index.js'

describe('the world table', () => {
  it('has 10,000 rows whose randomNumber is a function of id, within 1..10000', () => {
    const rows = [...worldRows()]
    expect(rows).toHaveLength(WORLD_ROW_COUNT)
    expect(rows[0]).toEqual([1, randomNumberFor(1)])
    // One assertion over the table (30,000 expect calls took 12 s on a busy machine): the rows that break a rule, none.
    const broken = rows.filter(([id, randomNumber]) => randomNumber !== randomNumberFor(id) || randomNumber < 1 || randomNumber > 10_000)
    expect(broken).toEqual([])
    // Scattered, not the identity: a SUT echoing the id would be caught.
    expect(rows.filter(([id, randomNumber]) => id === randomNumber).length).toBeLessThan(5)
  })

  it('is seeded into PostgreSQL by the same rule', () => {
    expect(WORLD_SEED_SQL_POSTGRES).toContain(`((id * ${WORLD_ROW_RULE.multiplier}) % ${WORLD_ROW_RULE.rowCount}) + 1`)
    expect(WORLD_SEED_SQL_POSTGRES).toContain(`generate_series(1, ${WORLD_ROW_RULE.rowCount})`)
  })

  it('has as many rows as the Go SUTs draw their ids from (scenarios/go/dyno/data.go)', () => {
    const goSource = readFileSync(new URL('../go/dyno/data.go', import.meta.url), 'utf8')
    const goCount = /WorldRowCount\s*=\s*([\d_]+)/.exec(goSource)?.[1]
    expect(Number(goCount?.replaceAll('_', ''))).toBe(WORLD_ROW_COUNT)
  })

  it('draws ids over the whole table', () => {
    const ids = Array.from({ length: 5000 }, randomWorldId)
    expect(Math.min(...ids)).toBeGreaterThanOrEqual(1)
    expect(Math.max(...ids)).toBeLessThanOrEqual(WORLD_ROW_COUNT)
    expect(new Set(ids).size).toBeGreaterThan(3000)
  })

  it.each([
    [{ id: 42, randomNumber: randomNumberFor(42) }, true],
    [{ id: 42, randomNumber: randomNumberFor(42) + 1 }, false],
    [{ id: 0, randomNumber: randomNumberFor(0) }, false],
    [{ id: 10_001, randomNumber: 1 }, false],
    [{ id: '42', randomNumber: randomNumberFor(42) }, false],
    [{ id: 42, randomnumber: randomNumberFor(42) }, false],
    [{ id: 42, randomNumber: randomNumberFor(42), cached: true }, false],
    [[42, randomNumberFor(42)], false],
    [null, false]
  ])('accepts only real rows: %j → %s', (value, accepted) => {
    expect(isWorldRow(value)).toBe(accepted)
    expect(BODY_CHECKS.worldRow(value)).toBe(accepted)
  })
})
