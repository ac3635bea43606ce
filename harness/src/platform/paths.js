// @ts-check
import { fileURLToPath } from 'node:url'

/** The repository root (where pnpm-workspace.yaml is). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
/** Where the SUT packages live. */
export const PACKAGES_DIR = fileURLToPath(new URL('../../../packages/', import.meta.url))
/** The harness package itself. */
export const HARNESS_DIR = fileURLToPath(new URL('../../', import.meta.url))
/** The native load engine's package (Rust, built by its prepare script). */
export const NATIVE_ENGINE_DIR = fileURLToPath(new URL('../../../engines/native/', import.meta.url))
