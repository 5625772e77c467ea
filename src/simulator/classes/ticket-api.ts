/**
 * BFCL's `TicketAPI` (`ticket_api.py`): a support-ticket queue with a login. The checker compares its state and
 * its result strings, so every message and every Python quirk is reproduced. More in this folder's README.md.
 */
import { PyDict, PySet } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { pyTruthy } from "../../python/kinds.js";
import { pyEquals, pyGt, pyLt } from "../../python/compare.js";
import { pyAdd } from "../../python/arithmetic.js";
import { pyStr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";
import type { ApiInstance, MethodSpec } from "../types.js";
import type { BfclVersion } from "../../bfcl/data.js";
import type { PythonProcess } from "./process.js";
import { dict, dictGet, getItem, joinStr, method, noAttribute, opt, req, setItem, strLower } from "./class-support.js";

const VALID_UPDATE_FIELDS = ["title", "description", "status", "priority"];

class TicketApi implements ApiInstance {
  readonly className = "TicketAPI" as const;
  private ticketQueue: PyValue = [];
  private ticketCounter: PyValue = 1n;
  private currentUser: PyValue = null;
  private loaded = false;
  /** The public methods, built once per class: each body acts on the instance it is called on. */
  private static readonly METHODS: ReadonlyMap<string, MethodSpec> = new Map<string, MethodSpec>([
    ["close_ticket", method([req("ticket_id")], ([id], self: TicketApi) => self.closeTicket(id))],
    [
      "create_ticket",
      method([req("title"), opt("description", ""), opt("priority", 1n)], ([t, d, p], self: TicketApi) => self.createTicket(t, d, p)),
    ],
    ["edit_ticket", method([req("ticket_id"), req("updates")], ([id, u], self: TicketApi) => self.editTicket(id, u))],
    ["get_ticket", method([req("ticket_id")], ([id], self: TicketApi) => self.getTicket(id))],
    ["get_user_tickets", method([opt("status", null)], ([s], self: TicketApi) => self.getUserTickets(s))],
    ["logout", method([], (_args, self: TicketApi) => self.logout())],
    ["resolve_ticket", method([req("ticket_id"), req("resolution")], ([id, r], self: TicketApi) => self.resolveTicket(id, r))],
    ["ticket_get_login_status", method([], (_args, self: TicketApi) => dict([["login_status", pyTruthy(self.currentUser)]]))],
    ["ticket_login", method([req("username"), req("password")], ([u, p], self: TicketApi) => self.ticketLogin(u, p))],
  ]);
  /** v3 final's `ticket_get_login_status` answers under `username`. */
  private static readonly METHODS_V3: ReadonlyMap<string, MethodSpec> = new Map([
    ...TicketApi.METHODS,
    ["ticket_get_login_status", method([], (_args, self: TicketApi) => dict([["username", pyTruthy(self.currentUser)]]))],
  ]);
  readonly methods: ReadonlyMap<string, MethodSpec>;

  constructor(classSource: BfclVersion) {
    this.methods = classSource === "v3" ? TicketApi.METHODS_V3 : TicketApi.METHODS;
  }

  loadScenario(config: PyDict): void {
    this.ticketQueue = dictGet(config, "ticket_queue", []);
    this.ticketCounter = dictGet(config, "ticket_counter", 1n);
    this.currentUser = dictGet(config, "current_user", null);
    this.loaded = true;
  }

  publicState(): [string, PyValue][] {
    if (!this.loaded) return [];
    return [
      ["ticket_queue", this.ticketQueue],
      ["ticket_counter", this.ticketCounter],
      ["current_user", this.currentUser],
    ];
  }

  private queue(): PyValue[] {
    if (Array.isArray(this.ticketQueue)) return this.ticketQueue;
    if (typeof this.ticketQueue === "string") return Array.from(this.ticketQueue);
    if (this.ticketQueue instanceof PyDict) return this.ticketQueue.keys();
    throw new PyException("TypeError", `'${this.ticketQueue === null ? "NoneType" : typeof this.ticketQueue}' object is not iterable`);
  }

  private findTicket(ticketId: PyValue): PyValue {
    for (const ticket of this.queue()) {
      if (pyEquals(getItem(ticket, "id"), ticketId)) return ticket;
    }
    return null;
  }

  private notFound(ticketId: PyValue): PyDict {
    return dict([["error", `Ticket with ID ${pyStr(ticketId)} not found.`]]);
  }

  private createTicket(title: PyValue, description: PyValue, priority: PyValue): PyValue {
    if (!pyTruthy(this.currentUser)) return dict([["error", "User not authenticated. Please log in to create a ticket."]]);
    if (pyLt(priority, 1n) || pyGt(priority, 5n)) return dict([["error", "Invalid priority. Priority must be between 1 and 5."]]);
    const ticket = dict([
      ["id", this.ticketCounter],
      ["title", title],
      ["description", description],
      ["status", "Open"],
      ["priority", priority],
      ["created_by", this.currentUser],
    ]);
    if (!Array.isArray(this.ticketQueue)) throw noAttribute(this.ticketQueue, "append");
    this.ticketQueue.push(ticket);
    this.ticketCounter = pyAdd(this.ticketCounter, 1n);
    return ticket;
  }

  private getTicket(ticketId: PyValue): PyValue {
    const ticket = this.findTicket(ticketId);
    if (!pyTruthy(ticket)) return this.notFound(ticketId);
    return ticket;
  }

  private closeTicket(ticketId: PyValue): PyValue {
    const ticket = this.findTicket(ticketId);
    if (!pyTruthy(ticket)) return this.notFound(ticketId);
    if (pyEquals(getItem(ticket, "status"), "Closed")) return dict([["error", `Ticket with ID ${pyStr(ticketId)} is already closed.`]]);
    setItem(ticket, "status", "Closed");
    return dict([["status", `Ticket ${pyStr(ticketId)} has been closed successfully.`]]);
  }

  private resolveTicket(ticketId: PyValue, resolution: PyValue): PyValue {
    const ticket = this.findTicket(ticketId);
    if (!pyTruthy(ticket)) return this.notFound(ticketId);
    if (pyEquals(getItem(ticket, "status"), "Resolved")) return dict([["error", `Ticket with ID ${pyStr(ticketId)} is already resolved.`]]);
    setItem(ticket, "status", "Resolved");
    setItem(ticket, "resolution", resolution);
    return dict([["status", `Ticket ${pyStr(ticketId)} has been resolved successfully.`]]);
  }

  private editTicket(ticketId: PyValue, updates: PyValue): PyValue {
    const ticket = this.findTicket(ticketId);
    if (!pyTruthy(ticket)) return this.notFound(ticketId);
    if (!(updates instanceof PyDict)) throw noAttribute(updates, "keys");
    // `set(updates.keys()) - valid_fields`: CPython iterates that set in hash order, which
    // depends on PYTHONHASHSEED; with two or more invalid fields the message order is not
    // reproducible even in Python. Insertion order is used here.
    const invalid = new PySet(updates.keys().filter((k) => !(typeof k === "string" && VALID_UPDATE_FIELDS.includes(k))));
    if (invalid.size > 0) return dict([["error", `Invalid fields for update: ${joinStr(", ", invalid.values())}`]]);
    for (const [key, value] of updates.entries()) {
      if (value !== null) setItem(ticket, key, value);
    }
    return dict([["status", `Ticket ${pyStr(ticketId)} has been updated successfully.`]]);
  }

  private ticketLogin(username: PyValue, password: PyValue): PyValue {
    if (pyTruthy(username) && pyTruthy(password)) {
      this.currentUser = username;
      return dict([["success", true]]);
    }
    return dict([["success", false]]);
  }

  private logout(): PyValue {
    if (pyTruthy(this.currentUser)) {
      this.currentUser = null;
      return dict([["success", true]]);
    }
    return dict([["success", false]]);
  }

  private getUserTickets(status: PyValue): PyValue {
    if (!pyTruthy(this.currentUser)) return [dict([["error", "User not authenticated. Please log in to view tickets."]])];
    let tickets = this.queue().filter((t) => pyEquals(getItem(t, "created_by"), this.currentUser));
    if (pyTruthy(status)) {
      tickets = tickets.filter((t) => {
        const own = strLower(getItem(t, "status"));
        return own === strLower(status);
      });
    }
    return tickets;
  }
}

/** A fresh `TicketAPI()` of the process's class sources (v4 without a process); no module-level state. */
export function newTicketApi(process?: PythonProcess): ApiInstance {
  return new TicketApi(process?.classSource ?? "v4");
}
