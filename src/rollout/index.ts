/** The generation loop's public surface: entry preparation, the loop, result lines, item selection, the prompting system prompt. */
export * from "./entry.js";
export * from "./executor.js";
export * from "./lines.js";
export * from "./loop.js";
export * from "./selection.js";
export * from "./serialize.js";
export * from "./system-prompt.js";
export * from "./inject-check.js";
export * from "./user-sim.js";
export * from "./reference-history.js";
export * from "./run-record.js";
