// @ts-check
// The files of a run directory and of a compare-commits results directory, named once: what `dyno run` and `compare-commits`
// write, and what report, compare and merge read back.

/** A run's index: its options, plan, environment and the result file of each cell. */
export const RUN_INDEX_FILE = 'run.json'
/** A run's aggregates: each cell's rounds summed up, with its interval and rank group. */
export const AGGREGATES_FILE = 'aggregates.json'
/** A compare-commits results directory's index: both sides' runs and the comparison's plan. */
export const COMPARE_COMMITS_INDEX = 'compare-commits.json'
