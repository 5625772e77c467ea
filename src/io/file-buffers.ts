/**
 * Files read whole into memory that is reused from one to the next, and written from it:
 * what BFCL's checker needs (every line of a result file at once, a score file rendered
 * into a buffer). Fresh memory is slow to touch — on the project's VM, reading a 2.2 MB
 * result file into a new buffer took 10 ms, into a reused one 0.3 ms.
 */
import { isUtf8 } from "node:buffer";
import { MAX_WHOLE_FILE_BYTES } from "./results-read.js";
import type { FileSystem } from "./file-system.js";

/** Buffers kept per use (`in0`, `out2` …) from one job to the next on one thread. */
export class ReusedBuffers {
  private readonly buffers = new Map<string, Uint8Array>();

  /** `fs`: the file system files are read from (a host's). */
  constructor(private readonly fs: FileSystem) {}

  /** A buffer of at least `bytes` for a use, kept for the next job: valid until then. */
  buffer(use: string, bytes: number): Uint8Array {
    let b = this.buffers.get(use);
    if (b === undefined || b.length < bytes) {
      b = new Uint8Array(Math.ceil(bytes * 1.25));
      this.buffers.set(use, b);
    }
    return b;
  }

  /** A file's bytes, read into this slot's reused buffer (throws on I/O errors and past the size a result file can be). */
  readFile(path: string, slot: number): Uint8Array {
    const fs = this.fs;
    const fd = fs.openRead(path);
    try {
      const size = fs.stat(path).size;
      if (size > MAX_WHOLE_FILE_BYTES)
        throw new Error(
          `file of ${Math.round(size / (1024 * 1024))} MB: more than the ${MAX_WHOLE_FILE_BYTES / (1024 * 1024)} MB a BFCL result file can be`,
        );
      const into = this.buffer(`in${slot}`, size);
      let n = 0;
      for (;;) {
        const r = fs.readInto(fd, into, n, into.length - n);
        if (r === 0) break;
        n += r;
        if (n === into.length) return fs.readBytes(path); // grew while being read: take it as it is now
      }
      return into.subarray(0, n);
    } finally {
      fs.close(fd);
    }
  }
}

/** Whether bytes are all UTF-8 (Node's native check). */
export function bytesAreUtf8(bytes: Uint8Array): boolean {
  return isUtf8(bytes);
}
