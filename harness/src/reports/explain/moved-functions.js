// @ts-check
// An anonymous function is keyed by its line (a script can hold many), so a release that moves one within its file would list it as
// gone and a new one beside it. This pairs them as a diff would: in a script, the named functions both counts kept are anchors, their
// lines mapping the baseline's onto the candidate's; between two neighbouring anchors, the anonymous functions only one side has are
// paired in line order, where both sides have the same number of them and each is costly enough that the other side would have kept
// it. Anywhere else it is not known which is which, and they stay apart.

/**
 * @typedef {import('../../measures/instructions/counts/function-profile.js').FunctionProfile} FunctionProfile
 * @typedef {import('../../measures/instructions/counts/function-profile.js').CountedFunction} CountedFunction
 */

export const ANONYMOUS = '(anonymous)'

/**
 * @param {FunctionProfile} baseline @param {FunctionProfile} candidate
 * @returns {FunctionProfile} the baseline, each anonymous function that moved keyed as the candidate keys it (its line its own)
 */
export function withMovedFunctionsPaired (baseline, candidate) {
  /** @type {Map<CountedFunction, CountedFunction>} */
  const renamed = new Map()
  const candidateKeys = new Set(candidate.functions.map((fn) => fn.key))
  const baselineKeys = new Set(baseline.functions.map((fn) => fn.key))
  for (const file of new Set(baseline.functions.map((fn) => fn.file).filter((file) => file !== null))) {
    const inFile = (/** @type {FunctionProfile} */ profile) => profile.functions.filter((fn) => fn.file === file)
    const anchors = anchorsOf(inFile(baseline), inFile(candidate))
    if (anchors === null) continue
    const loose = (/** @type {FunctionProfile} */ profile, /** @type {Set<string>} */ otherKeys, /** @type {FunctionProfile} */ other) =>
      inFile(profile).filter((fn) => fn.name === ANONYMOUS && fn.line !== null && !otherKeys.has(fn.key) &&
        Math.max(fn.selfPerRequest, fn.chargedPerRequest) > other.keptAbovePerRequest)
    const before = groupedBetween(loose(baseline, candidateKeys, candidate), anchors.map(([from]) => from))
    const after = groupedBetween(loose(candidate, baselineKeys, baseline), anchors.map(([, to]) => to))
    for (const [gap, gone] of before) {
      const come = after.get(gap) ?? []
      if (come.length !== gone.length) continue
      gone.forEach((fn, index) => renamed.set(fn, come[index]))
    }
  }
  if (renamed.size === 0) return baseline
  return {
    ...baseline,
    functions: baseline.functions.map((fn) => {
      const moved = renamed.get(fn)
      return moved ? { ...fn, key: moved.key } : fn
    })
  }
}

/**
 * @param {CountedFunction[]} before @param {CountedFunction[]} after one script's functions in each count
 * @returns {[number, number][] | null} the lines of the named functions both kept, baseline's and candidate's, in order; null where
 *   they are not in the same order on both sides (a script rearranged: no gap is known)
 */
function anchorsOf (before, after) {
  const afterByKey = new Map(after.filter((fn) => fn.name !== ANONYMOUS && fn.line !== null).map((fn) => [fn.key, fn.line ?? 0]))
  /** @type {[number, number][]} */
  const anchors = before.filter((fn) => fn.name !== ANONYMOUS && fn.line !== null && afterByKey.has(fn.key))
    .map((fn) => [fn.line ?? 0, afterByKey.get(fn.key) ?? 0])
  anchors.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  return anchors.every(([, to], index) => index === 0 || to >= anchors[index - 1][1]) ? anchors : null
}

/**
 * @param {CountedFunction[]} functions @param {number[]} anchorLines in order
 * @returns {Map<number, CountedFunction[]>} by the gap between anchors each is in (how many anchors lie at or above its line), in
 *   line order
 */
function groupedBetween (functions, anchorLines) {
  /** @type {Map<number, CountedFunction[]>} */
  const gaps = new Map()
  for (const fn of [...functions].sort((a, b) => (a.line ?? 0) - (b.line ?? 0))) {
    const gap = anchorLines.filter((line) => line <= (fn.line ?? 0)).length
    gaps.set(gap, [...(gaps.get(gap) ?? []), fn])
  }
  return gaps
}
