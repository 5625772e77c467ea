// Runs rolldown.config.mjs through rolldown's API rather than its CLI, which lists every
// chunk it writes (about 300 lines in each `npm ci`); warnings still print.
import { build } from "rolldown";
import configs from "../rolldown.config.mjs";

for (const config of configs) await build(config);
