// @ts-check

/** @typedef {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream & { isTTY?: boolean } }} Io where a command writes */

export {}
