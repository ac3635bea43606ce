// @ts-check
/**
 * The significance level of dyno's tests (a comparison's rank tests, a count's paired windows): their confidence intervals are at
 * 1 − alpha (95 %). `dyno compare` takes it as its default (compare/compare-defaults.js); a count takes as many windows as a
 * paired test at this level needs.
 */
export const SIGNIFICANCE_ALPHA = 0.05
