// @ts-check
// Runs many dyno command lines in one process, each through the CLI's own `main` with its output captured,
// and prints one JSON line per command line: what a user would see (exit code, stderr) and how long it took.
// Before each, it writes the command line to stderr, so a parent that has to kill it knows which one hung.
// Usage: node cli-batch.js <file with a JSON array of argv arrays>
import { readFileSync } from 'node:fs'
import { Writable } from 'node:stream'
import { main } from '../../src/interface/cli/main.js'

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'))
for (const argv of cases) {
  process.stderr.write(`${JSON.stringify(argv)}\n`)
  const captured = { stdout: '', stderr: '' }
  const sink = (/** @type {'stdout' | 'stderr'} */ name) =>
    new Writable({
      write (chunk, _encoding, done) {
        captured[name] += chunk
        done()
      }
    })
  const started = performance.now()
  const code = await main(argv, { stdout: sink('stdout'), stderr: sink('stderr') })
  process.stdout.write(JSON.stringify({ argv, code, ...captured, elapsedMs: Math.round(performance.now() - started) }) + '\n')
}
