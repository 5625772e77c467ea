/**
 * The eight API classes of BFCL's multi-turn categories, each with the module BFCL keeps
 * it in: its Python source is `func_source_code/<module>.py` (the module name shows in
 * the instances' `repr`, which BFCL's checker compares) and its function docs are
 * `multi_turn_func_doc/<module>.json`. The one list of them: the data reader, the catalog
 * and the executor all read it here.
 */
export const classModules = {
  GorillaFileSystem: "gorilla_file_system",
  MathAPI: "math_api",
  MessageAPI: "message_api",
  TwitterAPI: "posting_api",
  TicketAPI: "ticket_api",
  TradingBot: "trading_bot",
  TravelAPI: "travel_booking",
  VehicleControlAPI: "vehicle_control",
} as const;

/** One of the eight API classes. */
export type MultiTurnClass = keyof typeof classModules;

/** The class names in BFCL's order. */
export const multiTurnClasses = Object.keys(classModules) as MultiTurnClass[];

/** A class's function-doc file, relative to a BFCL data folder. */
export function docFile(cls: MultiTurnClass): string {
  return `multi_turn_func_doc/${classModules[cls]}.json`;
}
