// What touching memory for the first time costs on this machine: a fresh buffer of MB
// megabytes is written once per 4 kB page (each write a page fault: the kernel maps a page,
// on a virtual machine perhaps after the host does), then again (no faults). Prints the
// time of each pass and the time per first-touched page.
// Usage: node bench/first-touch.cjs [MB=16]
"use strict";
const mb = Number(process.argv[2] ?? 16);
if (!(mb > 0 && mb <= 1024)) {
  process.stderr.write("usage: node bench/first-touch.cjs [MB=16], 1 to 1024\n");
  process.exit(2);
}
const page = 4096;
const buf = Buffer.allocUnsafeSlow(mb * 1024 * 1024);
const t0 = performance.now();
for (let i = 0; i < buf.length; i += page) buf[i] = 1;
const t1 = performance.now();
for (let i = 0; i < buf.length; i += page) buf[i] = 2;
const t2 = performance.now();
const pages = buf.length / page;
console.log(
  `${mb} MB: first touch ${(t1 - t0).toFixed(1)} ms (${((1000 * (t1 - t0)) / pages).toFixed(1)} µs a page), second ${(t2 - t1).toFixed(1)} ms`,
);
