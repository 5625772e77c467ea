export * from "./counted.js";
export * from "./problem.js";
export * from "./result.js";
