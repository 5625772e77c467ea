/**
 * `skipNested` 64 bytes at a time, by a small WebAssembly module with SIMD: the walk of each
 * line's `inference_log` was a third of `score`'s time in a JavaScript byte loop. Same
 * answers as `skipNested` on every input (a backslash outside a string hands back to it).
 */
import { OPEN_BRACE, OPEN_BRACKET, skipValue } from "./json-bytes.js";
import { SKIP_NESTED_WASM } from "./skip-nested-wasm.js";

/** Regions shorter than this stay in JavaScript, where a copy and a call buy little. */
const LEAST_BYTES = 512;
/** The largest region copied into the module's memory, so a huge line does not keep a huge copy. */
const MOST_BYTES = 4 << 20;
/** Bytes the module may read past a region's end (one block). */
const TAIL = 64;
const PAGE = 1 << 16;

/** The part of the WebAssembly global used here (this project's Node types do not declare it). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { readonly exports: unknown };
};

interface SkipModule {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly skip: (start: number, end: number) => number;
}

let loaded: SkipModule | null | undefined;
/** Bumped by each copy: a region whose bytes were overwritten by a later one walks in JavaScript. */
let copies = 0;

/** The module, compiled on first use; null where this engine cannot run it (then every walk stays in JavaScript). */
function skipModule(): SkipModule | null {
  if (loaded !== undefined) return loaded;
  try {
    const bytes = Uint8Array.from(atob(SKIP_NESTED_WASM), (c) => c.charCodeAt(0));
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
    loaded = exports as unknown as SkipModule;
  } catch {
    loaded = null;
  }
  return loaded;
}

/**
 * A region of bytes copied once into the module's memory, so every list or object in it is
 * skipped there: `skip(i, end)` answers as `skipNested(bytes, i, end)` would, for `i` at a
 * `[` or `{` inside the region. Null when the region is too short or too long to be worth it,
 * or the module cannot run.
 */
export interface SimdRegion {
  skip(i: number, end: number): number;
}

/** A view of the module's memory, made again only when the memory grows (a view per line was garbage). */
let memoryView: Uint8Array | null = null;

/** A region as an object of one class (a closure per line was more garbage than the copy). */
class CopiedRegion implements SimdRegion {
  constructor(
    private readonly wasm: SkipModule,
    private readonly bytes: Uint8Array,
    private readonly start: number,
    private readonly end: number,
    private readonly copy: number,
  ) {}

  skip(i: number, stop: number): number {
    const { bytes, start } = this;
    if (this.copy !== copies || i < start || stop > this.end) return skipValue(bytes, i, stop);
    const found = this.wasm.skip(i - start, stop - start);
    if (found === -2) return skipValue(bytes, i, stop);
    return found < 0 ? -1 : found + start;
  }
}

/** The bytes `[start, end)` copied into the module's memory as a region (see `SimdRegion`), or null. */
export function simdRegion(bytes: Uint8Array, start: number, end: number): SimdRegion | null {
  const length = end - start;
  if (length < LEAST_BYTES || length > MOST_BYTES) return null;
  const wasm = skipModule();
  if (wasm === null) return null;
  const need = length + TAIL - wasm.memory.buffer.byteLength;
  if (need > 0) {
    try {
      wasm.memory.grow(Math.ceil(need / PAGE));
    } catch {
      return null;
    }
  }
  if (memoryView === null || memoryView.buffer !== wasm.memory.buffer) memoryView = new Uint8Array(wasm.memory.buffer);
  memoryView.set(bytes.subarray(start, end));
  return new CopiedRegion(wasm, bytes, start, end, ++copies);
}

/** `skipValue`, with lists and objects skipped in `region` when there is one. */
export function skipValueIn(region: SimdRegion | null, bytes: Uint8Array, i: number, end: number): number {
  const b = bytes[i];
  return region !== null && (b === OPEN_BRACKET || b === OPEN_BRACE) ? region.skip(i, end) : skipValue(bytes, i, end);
}
