/** The pairs layer's public surface: the manifest types, the builder, its file form and its listing, item digests, and the check of rollouts against the data. */
export * from "./types.js";
export * from "./build.js";
export * from "./certification.js";
export * from "./manifest-json.js";
export * from "./listing.js";
export * from "./digest.js";
export * from "./rollout-data.js";
export * from "./revisions.js";
