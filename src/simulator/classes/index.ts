/**
 * Registry of the eight re-implemented BFCL API classes: class name → constructor. More in this folder's
 * README.md.
 */
import type { ApiClass } from "../../catalog/types.js";
import type { ApiFactory, ApiInstance } from "../types.js";
import { PythonProcess } from "./process.js";
import { newGorillaFileSystem } from "./gorilla-file-system.js";
import { newMathApi } from "./math-api.js";
import { newMessageApi } from "./message-api.js";
import { newTwitterApi } from "./twitter-api.js";
import { newTicketApi } from "./ticket-api.js";
import { newTradingBot } from "./trading-bot.js";
import { newTravelApi } from "./travel-api.js";
import { newVehicleControlApi } from "./vehicle-control.js";

export { PythonProcess } from "./process.js";

/** A class constructor that sees the module-level state of its simulated process. */
export type ProcessBoundFactory = (process: PythonProcess) => ApiInstance;

/** Every class implemented so far, by BFCL class name. */
export const API_CLASS_FACTORIES: ReadonlyMap<ApiClass, ProcessBoundFactory> = new Map<ApiClass, ProcessBoundFactory>([
  ["GorillaFileSystem", newGorillaFileSystem],
  ["MathAPI", newMathApi],
  ["MessageAPI", newMessageApi],
  ["TwitterAPI", newTwitterApi],
  ["TicketAPI", newTicketApi],
  ["TradingBot", newTradingBot],
  ["TravelAPI", (process) => newTravelApi(process)],
  ["VehicleControlAPI", newVehicleControlApi],
]);

/** The constructors bound to one simulated process (what the executor calls per instance). */
export function apiFactories(process: PythonProcess): Map<ApiClass, ApiFactory> {
  return new Map([...API_CLASS_FACTORIES].map(([name, make]) => [name, () => make(process)] as const));
}
