// @ts-check
/**
 * The params scenario echoes both path parameters as strings.
 * @param {string} userId
 * @param {string} postId
 */
export function routeParams (userId, postId) {
  return { userId, postId }
}
