#!/usr/bin/env node
// @ts-check
import { main } from '../src/interface/cli/main.js'

// A terminal that closed (EIO) or a reader that left (EPIPE, `dyno compare … | head`) must not end dyno
// with an error in the middle of stopping its SUT and writing what it measured: output is lost, results are not.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})

process.exitCode = await main(process.argv.slice(2))
