// @ts-check
import { isWorldRow } from '../data/world.js'

/**
 * Checks a scenario can name for a body that is not one fixed value (a random row): shared by
 * verification and by the load generator, which runs them on every response.
 */
export const BODY_CHECKS = Object.freeze({
  /** `{ id, randomNumber }` with `randomNumber` the value the world table holds for `id` */
  worldRow: isWorldRow
})
