/**
 * The slice of Python's `datetime` that TravelAPI and TradingBot touch: `strptime` with
 * CPython's `_strptime` acceptance rules (`2024-1-5` is accepted, `2024-02-30` is
 * "day is out of range for month"), comparison, `min`/`max`, second offsets and
 * `strftime`. A naive datetime, no time zones (BFCL's timestamps are local-time round trips).
 */
import type { PyObject, PyValue } from "./value.js";
import { PyException } from "./exception.js";
import { pyTypeName } from "./kinds.js";
import { strRepr } from "./repr.js";

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Gregorian leap-year rule, as `calendar.isleap`. */
export function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[m - 1];
}

/** Days from 0001-01-01 (ordinal 1) — `date.toordinal()`. */
function toOrdinal(y: number, m: number, d: number): number {
  const y1 = y - 1;
  let days = y1 * 365 + Math.floor(y1 / 4) - Math.floor(y1 / 100) + Math.floor(y1 / 400);
  for (let i = 1; i < m; i++) days += daysInMonth(y, i);
  return days + d;
}

function fromOrdinal(n: number): [number, number, number] {
  // walk years from an estimate; dates here are within a few thousand years
  let y = Math.max(1, Math.floor((n - 1) / 365.2425) + 1);
  while (toOrdinal(y, 1, 1) > n) y--;
  while (toOrdinal(y + 1, 1, 1) <= n) y++;
  let m = 1;
  while (m < 12 && toOrdinal(y, m + 1, 1) <= n) m++;
  return [y, m, n - toOrdinal(y, m, 1) + 1];
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** A naive `datetime.datetime` (microseconds always 0 here). */
export class PyDatetime implements PyObject {
  /** CPython's type name as it appears in comparison TypeErrors. */
  readonly pyTypeName = "datetime.datetime";

  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
    readonly hour = 0,
    readonly minute = 0,
    readonly second = 0,
  ) {
    if (year < 1 || year > 9999) throw new PyException("ValueError", `year ${year} is out of range`);
    if (month < 1 || month > 12) throw new PyException("ValueError", "month must be in 1..12");
    if (day < 1 || day > daysInMonth(year, month)) throw new PyException("ValueError", "day is out of range for month");
    if (hour < 0 || hour > 23) throw new PyException("ValueError", "hour must be in 0..23");
    if (minute < 0 || minute > 59) throw new PyException("ValueError", "minute must be in 0..59");
    if (second < 0 || second > 59) throw new PyException("ValueError", "second must be in 0..59");
  }

  /** `datetime.min` (0001-01-01 00:00:00). */
  static readonly min = new PyDatetime(1, 1, 1);
  /** `datetime.max` (9999-12-31 23:59:59; the .999999 is irrelevant at second resolution). */
  static readonly max = new PyDatetime(9999, 12, 31, 23, 59, 59);

  /** Seconds since 0001-01-01 00:00:00, a total order key. */
  get ordinalSeconds(): number {
    return (toOrdinal(this.year, this.month, this.day) - 1) * 86400 + this.hour * 3600 + this.minute * 60 + this.second;
  }

  /** `self + timedelta(seconds=s)`. */
  plusSeconds(s: number): PyDatetime {
    const total = this.ordinalSeconds + s;
    const days = Math.floor(total / 86400);
    let rem = total - days * 86400;
    const [y, m, d] = fromOrdinal(days + 1);
    const h = Math.floor(rem / 3600);
    rem -= h * 3600;
    const mi = Math.floor(rem / 60);
    return new PyDatetime(y, m, d, h, mi, rem - mi * 60);
  }

  /** `strftime` for %Y %m %d %H %M %S %I %p %y %%; other directives are not modelled. */
  strftime(fmt: string): string {
    return fmt.replace(/%(.)/g, (_, c: string) => {
      switch (c) {
        case "Y":
          return String(this.year);
        case "y":
          return pad(this.year % 100);
        case "m":
          return pad(this.month);
        case "d":
          return pad(this.day);
        case "H":
          return pad(this.hour);
        case "I":
          return pad(this.hour % 12 === 0 ? 12 : this.hour % 12);
        case "p":
          return this.hour < 12 ? "AM" : "PM";
        case "M":
          return pad(this.minute);
        case "S":
          return pad(this.second);
        case "%":
          return "%";
        default:
          throw new Error(`strftime directive %${c} is not modelled`);
      }
    });
  }

  /** `repr`: `datetime.datetime(2024, 9, 1, 10, 30)` (hour and minute always shown, seconds when non-zero, as CPython). */
  pyRepr(): string {
    const parts = [this.year, this.month, this.day, this.hour, this.minute];
    if (this.second) parts.push(this.second);
    return `datetime.datetime(${parts.join(", ")})`;
  }

  /** `str`: ISO format with a space, `2024-09-01 10:30:00`. */
  pyStr(): string {
    return `${pad(this.year, 4)}-${pad(this.month)}-${pad(this.day)} ${pad(this.hour)}:${pad(this.minute)}:${pad(this.second)}`;
  }

  pyEq(other: PyValue): boolean {
    return other instanceof PyDatetime && other.ordinalSeconds === this.ordinalSeconds;
  }

  /** Ordering hook used by `pyCompare`; undefined (→ TypeError) against non-datetimes. */
  pyCompare(op: "<" | "<=" | ">" | ">=", other: PyValue): boolean | undefined {
    if (!(other instanceof PyDatetime)) return undefined;
    const a = this.ordinalSeconds;
    const b = other.ordinalSeconds;
    return op === "<" ? a < b : op === "<=" ? a <= b : op === ">" ? a > b : a >= b;
  }
}

const DIGIT = "\\p{Nd}";
/** `_strptime`'s regex fragments per directive (TimeRE), with Unicode digits as Python's `\d`. */
const DIRECTIVES: Record<string, string> = {
  Y: `(?<Y>${DIGIT}${DIGIT}${DIGIT}${DIGIT})`,
  m: `(?<m>1[0-2]|0[1-9]|[1-9])`,
  d: `(?<d>3[01]|[12]${DIGIT}|0[1-9]|[1-9]| [1-9])`,
  H: `(?<H>2[0-3]|[0-1]${DIGIT}|${DIGIT})`,
  M: `(?<M>[0-5]${DIGIT}|${DIGIT})`,
  S: `(?<S>6[0-1]|[0-5]${DIGIT}|${DIGIT})`,
  y: `(?<y>${DIGIT}${DIGIT})`,
  I: `(?<I>1[0-2]|0[1-9]|[1-9])`,
  p: `(?<p>am|pm)`,
  "%": "%",
};

function digitValue(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    let v: number;
    if (cp >= 0x30 && cp <= 0x39) v = cp - 0x30;
    else {
      let base = cp;
      while (base > 0 && cp - base < 60 && /\p{Nd}/u.test(String.fromCodePoint(base - 1))) base--;
      v = (cp - base) % 10;
    }
    n = n * 10 + v;
  }
  return n;
}

const regexCache = new Map<string, RegExp>();

function compileFormat(format: string): RegExp {
  let re = regexCache.get(format);
  if (re) return re;
  let src = "";
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch === "%" && i + 1 < format.length) {
      const d = format[++i];
      const frag = DIRECTIVES[d];
      if (frag === undefined) throw new PyException("ValueError", `'${d}' is a bad directive in format '%${d}'`);
      src += frag;
    } else if (/\s/u.test(ch)) {
      src += "\\s+";
      while (i + 1 < format.length && /\s/u.test(format[i + 1])) i++;
    } else {
      src += ch.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
    }
  }
  re = new RegExp(`^(?:${src})`, "iu");
  regexCache.set(format, re);
  return re;
}

/**
 * `datetime.strptime(text, format)` for the numeric directives BFCL uses. Python's messages:
 * `time data '…' does not match format '…'`, `unconverted data remains: …`,
 * `day is out of range for month`; TypeError for a non-str argument.
 */
export function pyStrptime(text: PyValue, format: string): PyDatetime {
  if (typeof text !== "string") {
    // CPython's argument check spells None as "None", every other type by its name
    throw new PyException("TypeError", `strptime() argument 1 must be str, not ${text === null ? "None" : pyTypeName(text)}`);
  }
  const re = compileFormat(format);
  const m = re.exec(text);
  if (!m) throw new PyException("ValueError", `time data ${strRepr(text)} does not match format ${strRepr(format)}`);
  if (m[0].length !== text.length) throw new PyException("ValueError", `unconverted data remains: ${text.slice(m[0].length)}`);
  const g = m.groups ?? {};
  let year = 1900;
  if (g.Y !== undefined) year = digitValue(g.Y);
  else if (g.y !== undefined) {
    const yy = digitValue(g.y);
    year = yy <= 68 ? 2000 + yy : 1900 + yy;
  }
  const month = g.m !== undefined ? digitValue(g.m) : 1;
  const day = g.d !== undefined ? digitValue(g.d.trim()) : 1;
  let hour = g.H !== undefined ? digitValue(g.H) : 0;
  if (g.I !== undefined) {
    const h12 = digitValue(g.I);
    const pm = (g.p ?? "").toLowerCase() === "pm";
    hour = g.p === undefined ? h12 : pm ? (h12 === 12 ? 12 : h12 + 12) : h12 === 12 ? 0 : h12;
  }
  const minute = g.M !== undefined ? digitValue(g.M) : 0;
  const second = g.S !== undefined ? digitValue(g.S) : 0; // 60/61 match and then fail in the constructor, as in CPython
  return new PyDatetime(year, month, day, hour, minute, second);
}
