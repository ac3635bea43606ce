// @ts-check
/** The greeting every static scenario answers with. */
export const HELLO_TEXT = 'Hello, World!'

/** @returns {{ message: string }} a fresh object, so a framework cannot serialize it once and cache the bytes. */
export function helloMessage () {
  return { message: HELLO_TEXT }
}
