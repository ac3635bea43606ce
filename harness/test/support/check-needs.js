#!/usr/bin/env node
// @ts-check
// Before any test runs (`.ci/run` calls it after the install): every tool, service and engine the suite needs, checked at once. A
// missing one is named with what installs it, and the exit code is 1, so a run fails in seconds saying why rather than a test
// file failing on it half an hour in.
import { everyNeed } from './needs.js'

const needs = everyNeed()
const absent = needs.filter((need) => need.reason !== null)
for (const need of absent) process.stderr.write(`ci: missing: ${need.name}: ${need.reason}\n`)
if (absent.length > 0) {
  process.stderr.write(`ci: ${absent.length} of the ${needs.length} things the tests need are missing; no test was run\n`)
  process.exitCode = 1
} else {
  process.stdout.write(`ci: all ${needs.length} things the tests need are here (${needs.map((need) => need.name).join(', ')})\n`)
}
