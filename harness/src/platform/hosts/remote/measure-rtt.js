#!/usr/bin/env node
// @ts-check
// Runs on a load host, started by dyno over SSH: measures the round trip from there to the SUT (link-rtt.js) and replies with it
// (script-reply.js).
import { measureLinkRtt } from '../link-rtt.js'
import { writeReply } from './script-reply.js'

const [, , address, port, from, to, method = 'http'] = process.argv
if (method !== 'http' && method !== 'tcp') throw new Error(`measure-rtt: the method is http or tcp, got ${method}`)
writeReply(await measureLinkRtt({ address, port: Number(port), from, to, method }))
