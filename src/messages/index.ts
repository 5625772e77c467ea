export * from "./problem.js";
export * from "./result.js";
