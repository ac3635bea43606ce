// @ts-check
import { fileURLToPath } from 'node:url'

/** The repository root (where pnpm-workspace.yaml is). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** Where the SUT packages live. */
export const PACKAGES_DIR = fileURLToPath(new URL('../../packages/', import.meta.url))
/** The harness package itself. */
export const HARNESS_DIR = fileURLToPath(new URL('../', import.meta.url))
