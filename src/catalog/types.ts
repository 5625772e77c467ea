/**
 * The function catalog's vocabulary. Each public function of the eight multi-turn API
 * classes is labelled once, from what a successful call does to the state BFCL's
 * state checker compares.
 */
import type { BfclVersion } from "../bfcl/data.js";

/** `mutate`: changes compared state; `read`: only reads; `login`: logs in or out. */
export type FunctionKind = "mutate" | "read" | "login";

/** The eight multi-turn API classes. */
export type ApiClass =
  | "GorillaFileSystem"
  | "MathAPI"
  | "MessageAPI"
  | "TwitterAPI"
  | "TicketAPI"
  | "TradingBot"
  | "TravelAPI"
  | "VehicleControlAPI";

/** One labelled function. */
export interface CatalogEntry {
  readonly name: string;
  readonly apiClass: ApiClass;
  readonly kind: FunctionKind;
  /** One line: why the label, in terms of the state the checker compares. */
  readonly reason: string;
  /** Set when only one BFCL version's class has the function (v3's TradingBot had three that v4 dropped, v4 added two). */
  readonly onlyIn?: BfclVersion;
}

/** Options of the world-changing predicate: the paper's login sensitivity. */
export interface WorldChangingOptions {
  readonly countLogin: boolean;
}
