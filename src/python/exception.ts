/**
 * A Python exception raised by simulated code. `str(e)` in Python is the message alone
 * (for KeyError, the repr of the key), which is what BFCL puts after
 * `Error during execution: `.
 */
export class PyException extends Error {
  /** Python exception class name, e.g. `TypeError`, `KeyError`, `ValueError`. */
  readonly pyType: string;
  /** What `str(e)` prints. */
  readonly pyMessage: string;

  constructor(pyType: string, pyMessage: string) {
    // Python exceptions are the simulated classes' ordinary control flow (thousands per
    // check run); a JavaScript stack trace is never shown for them, so none is captured
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${pyType}: ${pyMessage}`);
    Error.stackTraceLimit = limit;
    this.pyType = pyType;
    this.pyMessage = pyMessage;
  }
}
