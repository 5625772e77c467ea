import { describeClassAgainstBfcl } from "../../testing/class-vectors.js";

describeClassAgainstBfcl("MathAPI");
