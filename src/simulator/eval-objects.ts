/**
 * The Python objects a call string can reach in BFCL's executor besides plain values: an
 * API instance (what an instance name evaluates to) and a bound method of one.
 */
import type { PyObject } from "../python/value.js";
import type { ApiInstance, MethodSpec } from "./types.js";

/** Module path of each class, for the few CPython messages that print the fully qualified name. */
export const CLASS_MODULES: Readonly<Record<string, string>> = {
  GorillaFileSystem: "gorilla_file_system",
  MathAPI: "math_api",
  MessageAPI: "message_api",
  TwitterAPI: "posting_api",
  TicketAPI: "ticket_api",
  TradingBot: "trading_bot",
  TravelAPI: "travel_booking",
  VehicleControlAPI: "vehicle_control",
};

/** A live instance as a Python object (what an instance name evaluates to). */
export class InstanceObject implements PyObject {
  constructor(
    readonly instance: ApiInstance,
    readonly pyTypeName: string,
  ) {}
  pyRepr(): string {
    const mod = CLASS_MODULES[this.pyTypeName] ?? "__main__";
    return `<bfcl_eval.eval_checker.multi_turn_eval.func_source_code.${mod}.${this.pyTypeName} object>`;
  }
}

/** A bound method (`instance.method`), callable by the interpreter. */
export class BoundMethod implements PyObject {
  readonly pyTypeName = "method";
  constructor(
    readonly className: string,
    readonly methodName: string,
    readonly spec: MethodSpec,
    readonly self: ApiInstance,
  ) {}
  get qualname(): string {
    return `${this.className}.${this.methodName}`;
  }
  pyRepr(): string {
    return `<bound method ${this.qualname} of <${this.className} object>>`;
  }
}

/** CPython's fully qualified name of a method, used by the `*`/`**` argument messages. */
export function moduleQualname(className: string, qualname: string): string {
  const mod = CLASS_MODULES[className];
  return mod ? `bfcl_eval.eval_checker.multi_turn_eval.func_source_code.${mod}.${qualname}` : `__main__.${qualname}`;
}
