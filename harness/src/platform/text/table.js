// @ts-check
import Table from 'cli-table3'

/**
 * A compact terminal table (no row separators, no colours), the one look of every dyno table.
 * @param {string[]} head
 * @param {{ alignRight?: number[] }} [options] column indexes to right-align (numbers)
 */
export function createTable (head, { alignRight = [] } = {}) {
  return new Table({
    head,
    style: { head: [], border: [], compact: true },
    colAligns: head.map((_, index) => alignRight.includes(index) ? 'right' : 'left')
  })
}
