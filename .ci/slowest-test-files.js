#!/usr/bin/env node
// @ts-check
// Prints the slowest test files of a CI run, from the times vitest's runs appended to DYNO_TEST_TIMES_DIR (test-time-reporters.js),
// so that a test creeping towards CI's limit is seen at every stop.
// Usage: node .ci/slowest-test-files.js <dir> [count]
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const [dir, countArg = '15'] = process.argv.slice(2)
const count = Number(countArg)
if (!dir || !Number.isInteger(count) || count < 1) {
  process.stderr.write(`usage: slowest-test-files.js <dir> [count: a whole number >= 1, got \`${countArg}\`]\n`)
  process.exit(2)
}

/** @type {{ file: string, suite: string, sec: number, state: string }[]} */
const files = []
for (const name of readdirSync(dir).filter((entry) => entry.endsWith('.jsonl')).sort()) {
  const suite = name.replace(/-\d+\.jsonl$/, '')
  for (const line of readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean)) {
    try {
      const { file, project, sec, state } = JSON.parse(line)
      files.push({ file: relative(process.cwd(), file), suite: `${suite} ${project}`, sec, state })
    } catch {
      process.stderr.write(`ci: a line of ${name} is not whole JSON (its run was cut short there)\n`)
    }
  }
}
if (files.length === 0) {
  process.stdout.write(`ci: no test times in ${dir}\n`)
} else {
  files.sort((a, b) => b.sec - a.sec)
  const width = Math.max(...files.slice(0, count).map((entry) => entry.file.length))
  process.stdout.write(`ci: the ${Math.min(count, files.length)} slowest of ${files.length} test files\n`)
  for (const entry of files.slice(0, count)) {
    process.stdout.write(`  ${entry.sec.toFixed(1).padStart(7)} s  ${entry.file.padEnd(width)}  ${entry.suite} ${entry.state}\n`)
  }
}
