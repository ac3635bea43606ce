// @ts-check
// What a command of dyno is: one file of interface/commands/ that says what it is called, the arguments it takes, what it does, its
// options, and how it runs with what the command line gave it. The registry (command-table.js) lists them; main.js dispatches through it,
// and help and docs/cli.md are written from it.

/**
 * @typedef {object} CommandInput
 * @property {string[]} positionals
 * @property {import('./parse-command-line.js').ParsedOptions} options
 *
 * @typedef {object} Command
 * @property {string} name
 * @property {readonly string[]} args `<name>` required, `[name]` one that may be left out, `[...names]` any number
 * @property {string} summary
 * @property {readonly import('../../platform/options/option-spec.js').OptionSpec[]} options in help order
 * @property {(input: CommandInput, io: import('./io.js').Io, signal: AbortSignal) => Promise<number>} run returns the exit code
 */

export {}
