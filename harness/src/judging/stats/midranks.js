// @ts-check

/**
 * Midranks of values (1-based; tied values share the mean of their ranks) and the tie term
 * Σ(t³ − t) over the groups of t tied values, which the normal approximations of the rank tests
 * take off their variance.
 * @param {number[]} values
 * @returns {{ ranks: number[], tieTerm: number }}
 */
export function midranks (values) {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value)
  const ranks = new Array(values.length)
  let tieTerm = 0
  for (let start = 0; start < order.length;) {
    let end = start
    while (end + 1 < order.length && order[end + 1].value === order[start].value) end++
    const rank = (start + end) / 2 + 1
    for (let position = start; position <= end; position++) ranks[order[position].index] = rank
    const tied = end - start + 1
    tieTerm += tied ** 3 - tied
    start = end + 1
  }
  return { ranks, tieTerm }
}
