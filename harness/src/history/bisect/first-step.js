// @ts-check
// The first commit whose count steps, by bisection: `git bisect run`'s search over a line of commits in which every commit from
// the first that steps on is taken to step too (the count of a change stays in the commits after it). Each commit is judged
// once, against the good commit's count, by the caller's `judge`.

/**
 * @template T
 * @param {string[]} commits the commits after the good one, oldest first; the last is the bad one, which must step
 * @param {(commit: string) => Promise<T & { steps: boolean }>} judge
 * @returns {Promise<{ first: string, tested: (T & { commit: string, steps: boolean })[] }>} tested: in the order judged
 */
export async function firstStep (commits, judge) {
  /** @type {(T & { commit: string, steps: boolean })[]} */
  const tested = []
  // lo: the last commit known not to step (-1: the good one); hi: the first known to step (the bad one).
  let lo = -1
  let hi = commits.length - 1
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    const verdict = await judge(commits[mid])
    tested.push({ ...verdict, commit: commits[mid] })
    if (verdict.steps) hi = mid
    else lo = mid
  }
  return { first: commits[hi], tested }
}
