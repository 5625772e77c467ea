// Writes src/bfcl/skip-nested-wasm.ts: the WebAssembly module (as base64) that finds where a
// JSON list or object ends 64 bytes at a time, compiled from the WAT text below by wabt.
// The module reproduces `skipNested` in src/bfcl/json-bytes.ts (why and how: the README's
// "Notes by file" in src/bfcl/).
//   node tools/gen-skip-wasm.mjs          write the file
//   node tools/gen-skip-wasm.mjs --check  exit 1 when the file differs from what it would write
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import wabt from "wabt";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "bfcl", "skip-nested-wasm.ts");

/** Sixteen lanes of byte `b`. */
const lanes = (b) => `(v128.const i8x16 ${Array(16).fill(b).join(" ")})`;

/** The lane mask of `test` (a v128 of 0x00/0xff lanes) moved to bits 16k..16k+15 of an i64. */
const bits = (test, k) => `(i64.shl (i64.extend_i32_u (i8x16.bitmask ${test})) (i64.const ${16 * k}))`;

/** Or the masks of the 16 bytes at $p + 16k into $quote, $backslash, $open and $close. */
function chunk(k) {
  const v = `(local.get $v)`;
  const folded = `(v128.or ${v} ${lanes(0x20)})`; // '[' and '{' both fold to '{', ']' and '}' to '}'
  return `
    (local.set $v (v128.load offset=${16 * k} align=1 (local.get $p)))
    (local.set $quote (i64.or (local.get $quote) ${bits(`(i8x16.eq ${v} ${lanes(0x22)})`, k)}))
    (local.set $backslash (i64.or (local.get $backslash) ${bits(`(i8x16.eq ${v} ${lanes(0x5c)})`, k)}))
    (local.set $open (i64.or (local.get $open) ${bits(`(i8x16.eq ${folded} ${lanes(0x7b)})`, k)}))
    (local.set $close (i64.or (local.get $close) ${bits(`(i8x16.eq ${folded} ${lanes(0x7d)})`, k)}))`;
}

/** The running xor of `x` from bit 0 up, in place. */
const prefixXor = (x) =>
  [1, 2, 4, 8, 16, 32].map((s) => `(local.set ${x} (i64.xor (local.get ${x}) (i64.shl (local.get ${x}) (i64.const ${s}))))`).join("\n    ");

export const wat = `(module
  (memory (export "memory") 1)
  ;; skip(start, end): index past the list or object opening at start, -1 when it does not
  ;; close before end, -2 when a backslash stands outside a string (the caller walks instead).
  (func (export "skip") (param $start i32) (param $end i32) (result i32)
    (local $p i32) (local $left i32) (local $depth i32) (local $v v128)
    (local $quote i64) (local $backslash i64) (local $open i64) (local $close i64) (local $valid i64)
    (local $escaped i64) (local $carry i64) (local $inString i64) (local $s i64) (local $rest i64) (local $bit i64)
    (local.set $p (local.get $start))
    (loop $blocks
      (local.set $left (i32.sub (local.get $end) (local.get $p)))
      (if (i32.le_s (local.get $left) (i32.const 0)) (then (return (i32.const -1))))
      (local.set $valid
        (if (result i64) (i32.ge_u (local.get $left) (i32.const 64))
          (then (i64.const -1))
          (else (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $left))) (i64.const 1)))))
      (local.set $quote (i64.const 0))
      (local.set $backslash (i64.const 0))
      (local.set $open (i64.const 0))
      (local.set $close (i64.const 0))
      ${[0, 1, 2, 3].map(chunk).join("")}
      (local.set $quote (i64.and (local.get $quote) (local.get $valid)))
      (local.set $backslash (i64.and (local.get $backslash) (local.get $valid)))
      ;; a backslash that is not itself escaped escapes the byte after it (bit 0 of the next block at bit 63)
      (local.set $escaped (local.get $carry))
      (local.set $carry (i64.const 0))
      (local.set $rest (local.get $backslash))
      (block $escapesDone
        (loop $escapes
          (br_if $escapesDone (i64.eqz (local.get $rest)))
          (local.set $bit (i64.and (local.get $rest) (i64.sub (i64.const 0) (local.get $rest))))
          (local.set $rest (i64.xor (local.get $rest) (local.get $bit)))
          (if (i64.eqz (i64.and (local.get $escaped) (local.get $bit)))
            (then
              (if (i64.lt_s (local.get $bit) (i64.const 0))
                (then (local.set $carry (i64.const 1)))
                (else (local.set $escaped (i64.or (local.get $escaped) (i64.shl (local.get $bit) (i64.const 1))))))))
          (br $escapes)))
      ;; inside a string: from an unescaped quote up to the next one (the opening quote in, the closing one out)
      (local.set $s (i64.and (local.get $quote) (i64.xor (local.get $escaped) (i64.const -1))))
      ${prefixXor("$s")}
      (local.set $s (i64.xor (local.get $s) (local.get $inString)))
      (local.set $inString (i64.shr_s (local.get $s) (i64.const 63)))
      (if (i64.ne (i64.and (local.get $backslash) (i64.xor (local.get $s) (i64.const -1))) (i64.const 0))
        (then (return (i32.const -2))))
      (local.set $open (i64.and (i64.and (local.get $open) (local.get $valid)) (i64.xor (local.get $s) (i64.const -1))))
      (local.set $close (i64.and (i64.and (local.get $close) (local.get $valid)) (i64.xor (local.get $s) (i64.const -1))))
      ;; fewer closes than the depth: the depth cannot reach 0 in this block
      (if (i32.gt_s (local.get $depth) (i32.wrap_i64 (i64.popcnt (local.get $close))))
        (then
          (local.set $depth (i32.add (local.get $depth)
            (i32.wrap_i64 (i64.sub (i64.popcnt (local.get $open)) (i64.popcnt (local.get $close))))))
          (local.set $p (i32.add (local.get $p) (i32.const 64)))
          (br $blocks)))
      (local.set $rest (i64.or (local.get $open) (local.get $close)))
      (block $bracketsDone
        (loop $brackets
          (br_if $bracketsDone (i64.eqz (local.get $rest)))
          (local.set $bit (i64.and (local.get $rest) (i64.sub (i64.const 0) (local.get $rest))))
          (local.set $rest (i64.xor (local.get $rest) (local.get $bit)))
          (if (i64.ne (i64.and (local.get $open) (local.get $bit)) (i64.const 0))
            (then (local.set $depth (i32.add (local.get $depth) (i32.const 1))))
            (else
              (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
              (if (i32.eqz (local.get $depth))
                (then (return (i32.add (i32.add (local.get $p) (i32.wrap_i64 (i64.ctz (local.get $bit)))) (i32.const 1)))))))
          (br $brackets)))
      (local.set $p (i32.add (local.get $p) (i32.const 64)))
      (br $blocks))
    (i32.const -1)))
`;

/** The module's bytes, compiled from `wat`. */
export async function compile() {
  const tools = await wabt();
  const module = tools.parseWat("skip-nested.wat", wat, { simd: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}

/** The text of src/bfcl/skip-nested-wasm.ts for `bytes`. */
export function source(bytes) {
  const base64 = bytes.toString("base64");
  const lines = base64.match(/.{1,96}/g).map((l) => `  "${l}"`);
  return `// Generated by tools/gen-skip-wasm.mjs from the WAT text in it; do not edit.\n\n/** The skip module's bytes, base64. */\nexport const SKIP_NESTED_WASM =\n${lines.join(" +\n")};\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = source(await compile());
  if (process.argv.includes("--check")) {
    const now = readFileSync(out, "utf8");
    if (now !== text) {
      process.stderr.write(`${out} is not what tools/gen-skip-wasm.mjs writes; run it\n`);
      process.exit(1);
    }
  } else writeFileSync(out, text);
}
