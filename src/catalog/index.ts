/** The catalog's public surface: labels, the world-changing predicate, reference-call classification. */
export * from "./types.js";
export * from "./catalog.js";
export * from "./world-changing.js";
export * from "./gold-call.js";
