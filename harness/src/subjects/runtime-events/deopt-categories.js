// @ts-check
// What a deoptimisation's reason says, in a few categories a reader can compare between runs. V8 writes the reason as text
// (`wrong map`, `Insufficient type feedback for call`, `not a Smi`, `out of bounds`, `code dependencies`); the list below is V8's
// DEOPTIMIZE_REASON_LIST read into groups, matched by the start of the text, first match wins. A reason no rule knows is `other`,
// with its text kept beside it.

/** @type {ReadonlyArray<{ category: string, means: string, starts: string[] }>} */
export const DEOPT_CATEGORIES = Object.freeze([
  {
    category: 'insufficient feedback',
    means: 'the optimised code reached an operation it had never seen run: it was compiled before the path was warm',
    starts: ['insufficient type feedback']
  },
  {
    category: 'shape or type changed',
    means: 'a value of a shape (map) or type the code was not compiled for: the program passes more kinds of objects than it did',
    starts: [
      'wrong map',
      'wrong instance type',
      'wrong name',
      'wrong value',
      'wrong call target',
      'wrong feedback cell',
      'wrong enum indices',
      'not a ',
      'not an ',
      'smi',
      'unexpected',
      'deprecated map',
      'prototype check',
      'instance migration',
      'cow array elements changed'
    ]
  },
  {
    category: 'value out of range',
    means: 'a number or an index outside what the code assumed: overflow, minus zero, NaN, a hole or an index out of bounds',
    starts: [
      'overflow',
      'minus zero',
      'nan',
      'hole',
      'out of bounds',
      'lost precision',
      'division by zero',
      'array buffer was detached',
      'array length changed',
      'bigint too big',
      'string too large',
      'negative value'
    ]
  },
  {
    category: 'dependency changed',
    means: 'something the code depended on changed (a prototype, a field type, a constant), and V8 threw the code away',
    starts: ['code dependencies', 'field type']
  },
  {
    category: 'on-stack replacement',
    means: 'a loop compiled while running left its optimised version',
    starts: ['osr']
  }
])

/** @param {string} reason V8's text @returns {string} the category */
export function deoptCategory (reason) {
  const text = reason.trim().toLowerCase()
  return DEOPT_CATEGORIES.find((rule) => rule.starts.some((start) => text.startsWith(start)))?.category ?? 'other'
}
