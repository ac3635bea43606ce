// @ts-check
// What `dyno host prepare` leaves in a host's checkout, and what a run compares with its own: the commit the files came from and
// the hash of the lockfile they were installed from.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileHash } from '../../util/content-hash.js'

/** The file, at the root of the host's checkout. */
export const CHECKOUT_STAMP_FILE = '.dyno-checkout.json'

/** @param {string} root a checkout @returns {string | null} sha256 of its pnpm-lock.yaml */
export function lockfileHash (root) {
  try {
    return fileHash(join(root, 'pnpm-lock.yaml'))
  } catch {
    return null
  }
}

/**
 * @typedef {object} CheckoutStamp
 * @property {string} commit
 * @property {string} lockfileSha256
 * @property {string} preparedAt ISO time
 * @property {string} preparedFrom the machine the checkout came from (its hostname)
 */

/** @param {string} root @returns {CheckoutStamp | null} */
export function readCheckoutStamp (root) {
  try {
    return JSON.parse(readFileSync(join(root, CHECKOUT_STAMP_FILE), 'utf8'))
  } catch {
    return null
  }
}
