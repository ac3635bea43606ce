#!/usr/bin/env node
// @ts-check
import { main } from '../src/cli/main.js'

process.exitCode = await main(process.argv.slice(2))
