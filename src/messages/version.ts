/** The twinscore version: what `--version` prints, `run.json` records and every JSON document carries (kept equal to package.json's by a test). */
export const TWINSCORE_VERSION = "0.1.0";
