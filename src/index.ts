/** The library entry point: the pure core, for programs that embed twinscore. */
export * from "./messages/index.js";
