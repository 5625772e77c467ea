/**
 * A Python exception raised by simulated code. `str(e)` in Python is the message alone
 * (for KeyError, the repr of the key), which is what BFCL puts after
 * `Error during execution: `.
 */
export class PyException extends Error {
  constructor(
    /** Python exception class name, e.g. `TypeError`, `KeyError`, `ValueError`. */
    readonly pyType: string,
    /** What `str(e)` prints. */
    readonly pyMessage: string,
  ) {
    super(`${pyType}: ${pyMessage}`);
  }
}
