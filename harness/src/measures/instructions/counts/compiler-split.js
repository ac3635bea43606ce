// @ts-check
// How much of a counted window V8 spent compiling, from callgrind's own per-function data (callgrind-profile.js): its parser and
// bytecode generator (a function run for the first time), Sparkplug, Maglev and TurboFan/Turboshaft (a function tiering up), and
// its deoptimizer (optimised code thrown away). A count keeps `--single-threaded`, so a compile job runs on the main thread, inside
// the window that asked for it. A window with compilation in it is not yet the runtime's steady state (count-settle.js).

/**
 * V8's compilers (12.x, 13.x): the entry points of a compile (Compiler::), the optimising compilers' own namespaces, the
 * baseline compiler, the job dispatcher, the parser and bytecode generator, and the deoptimizer.
 */
export const COMPILER_FUNCTIONS = new RegExp('^v8::internal::(?:' + [
  'Compiler::', 'compiler::', 'maglev::', 'baseline::', 'OptimizingCompileDispatcher::', 'Deoptimizer::', 'Parser::', 'ParserBase<',
  'PreParser::', 'interpreter::BytecodeGenerator::', 'Runtime_CompileLazy', 'Runtime_CompileOptimized', 'Runtime_InstallBaselineCode',
  'Runtime_NotifyDeoptimized', 'Runtime_DeoptimizeNow'
].join('|') + ')')

/** Calls into the optimising compilers' and the deoptimizer's entry points: how many functions were optimised or deoptimised. */
const OPTIMISED = /^v8::internal::(?:Compiler::CompileOptimized|Runtime_CompileOptimized|maglev::MaglevCompiler::Compile\b)/
const DEOPTIMISED = /^v8::internal::(?:Deoptimizer::New\b|Runtime_NotifyDeoptimized)/

/**
 * @typedef {object} CompilerSplit
 * @property {number} compilerInstructions what the calls into V8's compilers cost, with everything they called
 * @property {number} optimisations calls into an optimising compile
 * @property {number} deoptimisations
 */

/**
 * @param {import('./callgrind-profile.js').CallgrindProfile} profile one process's dump of one window
 * @returns {CompilerSplit}
 */
export function splitCompiler (profile) {
  const isCompiler = (/** @type {string} */ name) => COMPILER_FUNCTIONS.test(name)
  let compilerInstructions = 0
  let optimisations = 0
  let deoptimisations = 0
  const called = new Set()
  for (const arc of profile.arcs) {
    if (arc.caller === arc.callee) continue
    called.add(arc.callee)
    // A compile is counted where the program enters it, with all it calls: a call from one compiler function into another is inside it.
    if (isCompiler(arc.callee) && !isCompiler(arc.caller)) compilerInstructions += arc.inclusiveInstructions
    if (OPTIMISED.test(arc.callee) && !OPTIMISED.test(arc.caller)) optimisations += arc.calls
    if (DEOPTIMISED.test(arc.callee) && !DEOPTIMISED.test(arc.caller)) deoptimisations += arc.calls
  }
  // A compiler function with no caller in the dump (a thread's root) counts by its own instructions.
  for (const [name, self] of profile.selfInstructions) if (isCompiler(name) && !called.has(name)) compilerInstructions += self
  return { compilerInstructions: Math.min(Math.round(compilerInstructions), profile.instructions), optimisations, deoptimisations }
}
