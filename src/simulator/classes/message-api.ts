/**
 * BFCL's MessageAPI (`message_api.py`): users, a login, and an inbox of one-entry `{receiver_id: message}`
 * dicts. More in this folder's README.md.
 */
import type { ApiInstance, CallNotes, MethodSpec, ParamSpec } from "../types.js";
import type { PyValue } from "../../python/value.js";
import { PyDict, PySet } from "../../python/containers.js";
import { PyException } from "../../python/exception.js";
import { pyTruthy } from "../../python/kinds.js";
import { pyEquals } from "../../python/compare.js";
import { pyAdd } from "../../python/arithmetic.js";
import { pyContains, pyIter } from "../../python/iterables.js";
import { PyRandom } from "../../python/random.js";
import { pyStr } from "../../python/repr.js";
import type { BfclVersion } from "../../bfcl/data.js";
import type { PythonProcess } from "./process.js";
import { beyondBound, dict, errorDict, fmt, noAttribute, strSelf } from "./class-support.js";

const DEFAULT_SEED = 200191n;

/** CPython's set constants (Objects/setobject.c). */
const SET_MIN_SIZE = 8;
const LINEAR_PROBES = 9;
const PERTURB_SHIFT = 5n;
const HASH_MODULUS = (1n << 61n) - 1n;

/**
 * A set of message ids that iterates (and so prints) in CPython's hash-table order, as score files and state
 * logs print `generated_ids`. Simulated for sets of non-negative ints below 2^61 built by adds only, all
 * MessageAPI does; anything else keeps insertion order. More in this folder's README.md.
 */
export class CPythonIntSet extends PySet {
  private readonly added: PyValue[] = [];

  override add(v: PyValue): void {
    if (!this.has(v)) this.added.push(v);
    super.add(v);
  }

  override delete(v: PyValue): boolean {
    const removed = super.delete(v);
    if (removed) this.added.length = 0; // a deletion leaves a dummy slot: give up the simulation
    return removed;
  }

  override values(): PyValue[] {
    const plain = super.values();
    if (this.added.length !== plain.length || !this.added.every((v) => typeof v === "bigint" && v >= 0n && v < HASH_MODULUS)) return plain;
    let mask = SET_MIN_SIZE - 1;
    let table: (bigint | null)[] = new Array(SET_MIN_SIZE).fill(null);
    let used = 0;
    const place = (tbl: (bigint | null)[], m: number, key: bigint): void => {
      let perturb = key;
      let i = Number(key & BigInt(m));
      for (;;) {
        const probes = i + LINEAR_PROBES <= m ? LINEAR_PROBES : 0;
        for (let j = 0; j <= probes; j++) {
          if (tbl[i + j] === null) {
            tbl[i + j] = key;
            return;
          }
        }
        perturb >>= PERTURB_SHIFT;
        i = Number((BigInt(i) * 5n + 1n + perturb) & BigInt(m));
      }
    };
    for (const key of this.added as bigint[]) {
      place(table, mask, key);
      used++;
      if (used * 5 >= mask * 3) {
        const minUsed = used > 50000 ? used * 2 : used * 4;
        let size = SET_MIN_SIZE;
        while (size <= minUsed) size <<= 1;
        const bigger: (bigint | null)[] = new Array(size).fill(null);
        for (const k of table) if (k !== null) place(bigger, size - 1, k);
        table = bigger;
        mask = size - 1;
      }
    }
    return table.filter((k): k is bigint => k !== null);
  }
}

function defaultState(): Record<string, PyValue> {
  return {
    generated_ids: new CPythonIntSet(),
    user_count: 4n,
    user_map: dict({ Alice: "USR001", Bob: "USR002", Catherine: "USR003", Daniel: "USR004" }),
    inbox: [
      dict({ USR002: "My name is Alice. I want to connect." }),
      dict({ USR003: "Could you upload the file?" }),
      dict({ USR004: "Could you upload the file?" }),
    ],
    message_count: 3n,
    current_user: null,
  };
}

/** `list(d.items())[0]` of an inbox entry, with Python's errors for non-dicts and empty dicts. */
function firstItem(message: PyValue): [PyValue, PyValue] {
  if (!(message instanceof PyDict)) throw noAttribute(message, "items");
  const entries = message.entries();
  if (entries.length === 0) throw new PyException("IndexError", "list index out of range");
  return entries[0];
}

/** `d.values()` / `d.keys()` of a state dict, with the AttributeError of a non-dict. */
function dictOf(v: PyValue, method: string): PyDict {
  if (!(v instanceof PyDict)) throw noAttribute(v, method);
  return v;
}

/** `list.append(x)` on a state value. */
function append(list: PyValue, x: PyValue): void {
  if (!Array.isArray(list)) throw noAttribute(list, "append");
  list.push(x);
}

/** Python's `str.zfill(width)`. */
function zfill(s: string, width: number): string {
  if (s.length >= width) return s;
  const sign = s[0] === "+" || s[0] === "-" ? s[0] : "";
  return sign + "0".repeat(width - s.length) + s.slice(sign.length);
}

/** Draws of taken ids in a row after which `_generate_id` looks whether any id is free at all. */
const ID_DRAWS_BEFORE_CHECK = 1000;

/** Whether some id in [10000, 99999] is not in `ids` (a container `in` works on: its ints and integral floats count). */
function hasFreeId(ids: PyValue): boolean {
  const taken = new Set<number>();
  for (const v of pyIter(ids)) {
    const n = typeof v === "bigint" ? Number(v) : typeof v === "number" ? v : Number.NaN;
    if (Number.isInteger(n) && n >= 10000 && n <= 99999) taken.add(n);
  }
  return taken.size < 90000;
}

class MessageApi implements ApiInstance {
  readonly className = "MessageAPI" as const;
  readonly methods: ReadonlyMap<string, MethodSpec>;
  private loaded = false;
  private random = new PyRandom(DEFAULT_SEED);
  private state: Record<string, PyValue> = defaultState();

  /** v3 final's `delete_message` answers `message_id` (the receiver) and says "first message". */
  private readonly v3: boolean;

  constructor(classSource: BfclVersion = "v4") {
    this.v3 = classSource === "v3";
    const m = new Map<string, MethodSpec>();
    const def = (name: string, params: ParamSpec[], invoke: MethodSpec["invoke"]) => m.set(name, { params, invoke });
    def("list_users", [], () => dict({ user_list: dictOf(this.state.user_map, "keys").keys() }));
    def("get_user_id", [{ name: "user" }], ([user]) => this.getUserId(user));
    def("message_login", [{ name: "user_id" }], ([id]) => this.login(id));
    def("message_get_login_status", [], () => dict({ login_status: pyTruthy(this.state.current_user) }));
    def("send_message", [{ name: "receiver_id" }, { name: "message" }], ([r, msg], _self, notes) => this.send(r, msg, notes));
    def("delete_message", [{ name: "receiver_id" }], ([r]) => this.deleteMessage(r));
    def("view_messages_sent", [], () => this.viewSent());
    def("add_contact", [{ name: "user_name" }], ([n]) => this.addContact(n));
    def("search_messages", [{ name: "keyword" }], ([k]) => this.search(k));
    def("get_message_stats", [], () => this.stats());
    this.methods = m;
  }

  loadScenario(config: PyDict): void {
    // the executor passes a fresh deep copy (`_load_scenario(deepcopy(config))`), so it is kept as is
    const scenario = config;
    const defaults = defaultState();
    const seed = scenario.has("random_seed") ? scenario.get("random_seed")! : DEFAULT_SEED;
    if (typeof seed !== "bigint") throw new Error("MessageAPI: only int random_seed values are supported");
    this.random = new PyRandom(seed);
    const state: Record<string, PyValue> = {};
    for (const key of Object.keys(defaults)) state[key] = scenario.has(key) ? scenario.get(key)! : defaults[key];
    this.state = state;
    this.loaded = true;
  }

  publicState(): [string, PyValue][] {
    if (!this.loaded) return [];
    return Object.entries(this.state);
  }

  /**
   * `_generate_id`: draws until an id in [10000, 99999] is not in `generated_ids`. Once all
   * 90,000 are taken (90,000 messages sent in one entry) BFCL's loop never ends; here, after
   * a thousand draws in a row hit taken ids, the range is looked at once and, when it is
   * full, the call is stopped at that bound. Otherwise the draws go on as in Python.
   */
  private generateId(notes: CallNotes | undefined): PyValue {
    const ids = this.state.generated_ids;
    let id = this.random.randint(10000n, 99999n);
    for (let draws = 1; pyContains(ids, id); draws++) {
      if (draws === ID_DRAWS_BEFORE_CHECK && !hasFreeId(ids)) {
        throw beyondBound(notes, "send_message() with all 90,000 message ids taken (BFCL's id loop never ends)");
      }
      id = this.random.randint(10000n, 99999n);
    }
    if (!(ids instanceof PySet)) throw noAttribute(ids, "add");
    ids.add(id);
    return dict({ new_id: id });
  }

  private getUserId(user: PyValue): PyValue {
    const map = this.state.user_map;
    if (!pyContains(map, user)) return errorDict(`User '${fmt(user)}' not found in the workspace.`);
    return dict({ user_id: dictOf(map, "get").get(user) ?? null });
  }

  private login(userId: PyValue): PyValue {
    const ids = dictOf(this.state.user_map, "values").values();
    if (!ids.some((id) => id === userId || pyEquals(id, userId))) {
      return dict({ login_status: false, message: `User ID '${fmt(userId)}' not found.` });
    }
    this.state.current_user = userId;
    return dict({ login_status: true, message: `User '${fmt(userId)}' logged in successfully.` });
  }

  private send(receiverId: PyValue, message: PyValue, notes: CallNotes | undefined): PyValue {
    if (!pyTruthy(this.state.current_user)) return errorDict("No user is currently logged in.");
    const ids = dictOf(this.state.user_map, "values").values();
    if (!ids.some((id) => id === receiverId || pyEquals(id, receiverId))) return errorDict(`Receiver ID '${fmt(receiverId)}' not found.`);
    const messageId = this.generateId(notes);
    append(this.state.inbox, new PyDict([[receiverId, message]]));
    this.state.message_count = pyAdd(this.state.message_count, 1n);
    return dict({ sent_status: true, message_id: messageId, message: `Message sent to '${fmt(receiverId)}' successfully.` });
  }

  private deleteMessage(receiverId: PyValue): PyValue {
    if (!pyTruthy(this.state.current_user)) return errorDict("No user is currently logged in.");
    const inbox = this.state.inbox;
    const items = pyIter(inbox).slice().reverse();
    for (const message of items) {
      const [receiver] = firstItem(message);
      if (pyEquals(receiver, receiverId)) {
        // list.remove: the first element that is, or equals, `message`
        const list = inbox as PyValue[];
        const at = list.findIndex((x) => x === message || pyEquals(x, message));
        list.splice(at, 1);
        if (this.v3) {
          return dict({
            deleted_status: true,
            message_id: receiver,
            message: `Receiver ${fmt(receiverId)}'s first message deleted successfully.`,
          });
        }
        return dict({
          deleted_status: true,
          receiver_id: receiver,
          message: `Receiver ${fmt(receiverId)}'s latest message deleted successfully.`,
        });
      }
    }
    return errorDict(`Receiver ID ${fmt(receiverId)} not found.`);
  }

  private viewSent(): PyValue {
    if (!pyTruthy(this.state.current_user)) return errorDict("No user is currently logged in.");
    const sent = new PyDict();
    for (const message of pyIter(this.state.inbox)) {
      const [receiver, content] = firstItem(message);
      const existing = sent.get(receiver);
      if (existing === undefined) sent.set(receiver, [content]);
      else (existing as PyValue[]).push(content);
    }
    return dict({ messages: sent });
  }

  private addContact(userName: PyValue): PyValue {
    const map = this.state.user_map;
    if (pyContains(map, userName)) return errorDict(`User name '${fmt(userName)}' already exists.`);
    this.state.user_count = pyAdd(this.state.user_count, 1n);
    const userId = `USR${zfill(pyStr(this.state.user_count), 3)}`;
    const values = dictOf(map, "values").values();
    if (values.some((v) => pyEquals(v, userId))) return errorDict(`User ID '${userId}' already exists.`);
    (map as PyDict).set(userName, userId);
    return dict({ added_status: true, user_id: userId, message: `Contact '${fmt(userName)}' added successfully.` });
  }

  private search(keyword: PyValue): PyValue {
    if (!pyTruthy(this.state.current_user)) return errorDict("No user is currently logged in.");
    const lower = strSelf(keyword, "lower").toLowerCase();
    const results: PyValue[] = [];
    for (const data of pyIter(this.state.inbox)) {
      const [receiverId, content] = firstItem(data);
      if (strSelf(content, "lower").toLowerCase().includes(lower)) results.push(dict({ receiver_id: receiverId, message: content }));
    }
    return dict({ results });
  }

  private stats(): PyValue {
    if (!pyTruthy(this.state.current_user)) return errorDict("No user is currently logged in.");
    let received = 0n;
    const contacts = new PySet();
    for (const data of pyIter(this.state.inbox)) {
      const [receiverId] = firstItem(data);
      received += 1n;
      contacts.add(receiverId);
    }
    return dict({ stats: dict({ received_count: received, total_contacts: BigInt(contacts.size) }) });
  }
}

/** A fresh MessageAPI (no module-level state is mutated, so the process is unused). */
export function newMessageApi(process: PythonProcess): ApiInstance {
  return new MessageApi(process.classSource);
}
