/**
 * BFCL's `TravelAPI` (`travel_booking.py`): token login, credit cards, flight costs and bookings. More in this
 * folder's README.md.
 */
import { PyDict, PyTuple, keyOf } from "../../python/containers.js";
import { pyDeepCopy } from "../../python/copy.js";
import { pyStrptime } from "../../python/datetime.js";
import { PyException } from "../../python/exception.js";
import { pyEquals, pyLt, pyNotEquals } from "../../python/compare.js";
import { pyAdd, pyMul, pySub, pyTrueDiv } from "../../python/arithmetic.js";
import { pyFloat, pyInt, pyRound } from "../../python/convert.js";
import { pyContains, pyIter } from "../../python/iterables.js";
import { PyRandom } from "../../python/random.js";
import { pyRepr, pyStr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";
import type { ApiInstance, LongContextData, MethodSpec } from "../types.js";
import type { PythonProcess } from "./process.js";
import {
  type TodayClock,
  augmented,
  dict,
  dictGet,
  getItem,
  method,
  noAttribute,
  opt,
  req,
  setItem,
  strStartsWith,
  systemToday,
} from "./class-support.js";

const RANDOM_SEED = 141053n;

/** `base_costs` of `get_flight_cost`, in dict order: "FROM TO cost". */
const ROUTES_TEXT =
  "SFO LAX 200, SFO JFK 500, SFO ORD 400, SFO BOS 450, SFO RMS 300, SFO SBK 350, SFO MPC 370, SFO SVP 320, " +
  "SFO SHD 330, SFO SSV 340, SFO OKD 360, SFO WLB 310, SFO CRH 380, SFO ATV 390, SFO PHV 420, SFO GFD 430, " +
  "SFO CIA 700, LAX SFO 100, LAX JFK 600, LAX ORD 500, LAX BOS 550, LAX RMS 310, LAX SBK 320, LAX MPC 330, " +
  "LAX SVP 340, LAX SHD 350, LAX SSV 360, LAX OKD 370, LAX WLB 380, LAX CRH 390, LAX ATV 400, LAX PHV 410, " +
  "LAX GFD 420, LAX HND 430, JFK ORD 300, JFK BOS 250, JFK RMS 450, JFK SBK 460, JFK MPC 470, JFK SVP 480, " +
  "JFK SHD 490, JFK SSV 500, JFK OKD 510, JFK WLB 520, JFK CRH 530, JFK ATV 540, JFK PHV 550, JFK GFD 560, " +
  "JFK LAX 570, JFK HND 800, JFK PVG 950, JFK PEK 1000, ORD LAX 180, ORD BOS 200, ORD RMS 350, ORD SBK 360, " +
  "ORD MPC 370, ORD SVP 380, ORD SHD 390, ORD SSV 400, ORD OKD 410, ORD WLB 420, ORD CRH 430, ORD ATV 440, " +
  "ORD PHV 450, ORD GFD 460, BOS RMS 400, BOS SBK 410, BOS MPC 420, BOS SVP 430, BOS SHD 440, BOS SSV 450, " +
  "BOS OKD 460, BOS WLB 470, BOS CRH 480, BOS ATV 490, BOS PHV 500, BOS GFD 510, RMS BOS 200, RMS JFK 210, " +
  "RMS SBK 220, RMS MPC 230, RMS SVP 240, RMS SHD 250, RMS SSV 260, RMS OKD 270, RMS WLB 280, RMS CRH 290, " +
  "RMS ATV 300, RMS PHV 310, RMS GFD 320, RMS LAX 330, SBK MPC 200, SBK SVP 210, SBK SHD 220, SBK SSV 230, " +
  "SBK OKD 240, SBK WLB 250, SBK CRH 260, SBK ATV 270, SBK PHV 280, SBK GFD 290, MPC SVP 210, MPC SHD 220, " +
  "MPC SSV 230, MPC OKD 240, MPC WLB 250, MPC CRH 260, MPC ATV 270, MPC PHV 280, MPC GFD 290, SVP SHD 230, " +
  "SVP SSV 240, SVP OKD 250, SVP WLB 260, SVP CRH 270, SVP ATV 280, SVP PHV 290, SVP GFD 300, SHD SSV 220, " +
  "SHD OKD 230, SHD WLB 240, SHD CRH 250, SHD ATV 260, SHD PHV 270, SHD GFD 280, SSV OKD 240, SSV WLB 250, " +
  "SSV CRH 260, SSV ATV 270, SSV PHV 280, SSV GFD 290, OKD WLB 230, OKD CRH 240, OKD ATV 250, OKD PHV 260, " +
  "OKD GFD 270, WLB CRH 250, WLB ATV 260, WLB PHV 270, WLB GFD 280, CRH ATV 240, CRH PHV 250, CRH GFD 260, " +
  "CRH SFO 270, CRH RMS 280, CRH HKG 290, CRH JFK 300, ATV PHV 230, ATV GFD 240, PHV GFD 220, LHR CDG 100, " +
  "OKD LAX 220";

const ROUTES: readonly (readonly [string, string, bigint])[] = ROUTES_TEXT.split(", ").map((r) => {
  const [from, to, cost] = r.split(" ");
  return [from, to, BigInt(cost)] as const;
});
const ROUTE_COST = new Map<string, Map<string, bigint>>();
for (const [from, to, cost] of ROUTES) {
  if (!ROUTE_COST.has(from)) ROUTE_COST.set(from, new Map());
  ROUTE_COST.get(from)!.set(to, cost);
}

const AIRPORTS = [
  "RMS",
  "SBK",
  "MPC",
  "SVP",
  "SHD",
  "CDG",
  "LHR",
  "SSV",
  "OKD",
  "WLB",
  "PEK",
  "HND",
  "HKG",
  "CIA",
  "CRH",
  "ATV",
  "PHV",
  "GFD",
  "SFO",
  "LAX",
  "JFK",
  "ORD",
  "BOS",
];

const AIRPORT_BY_CITY = dict(
  (
    [
      ["Rivermist", "RMS"],
      ["Stonebrook", "SBK"],
      ["Maplecrest", "MPC"],
      ["Silverpine", "SVP"],
      ["Shadowridge", "SHD"],
      ["London", "LHR"],
      ["Paris", "CDG"],
      ["Sunset Valley", "SSV"],
      ["Oakendale", "OKD"],
      ["Willowbend", "WLB"],
      ["Crescent Hollow", "CRH"],
      ["Autumnville", "ATV"],
      ["Pinehaven", "PHV"],
      ["Greenfield", "GFD"],
      ["San Francisco", "SFO"],
      ["Los Angeles", "LAX"],
      ["New York", "JFK"],
      ["Chicago", "ORD"],
      ["Boston", "BOS"],
      ["Beijing", "PEK"],
      ["Hong Kong", "HKG"],
      ["Rome", "CIA"],
      ["Tokyo", "HND"],
    ] as const
  ).map(([c, a]) => [c, a] as const),
);

/** `exchange_rates` of `compute_exchange_rate`, in dict order (ints stay ints). */
const EXCHANGE_RATES: readonly (readonly [string, string, PyValue])[] = [
  ["USD", "RMB", 7n],
  ["USD", "EUR", 0.8],
  ["USD", "JPY", 110n],
  ["USD", "GBP", 0.7],
  ["USD", "CAD", 1.3],
  ["USD", "AUD", 1.4],
  ["USD", "INR", 70n],
  ["USD", "RUB", 60n],
  ["USD", "BRL", 3.8],
  ["USD", "MXN", 20n],
];

const TRAVEL_CLASSES = ["economy", "business", "first"];
/**
 * `f"... {valid_classes}"` prints a set of str, whose order CPython derives from the
 * per-process string hash (PYTHONHASHSEED). This is the order under PYTHONHASHSEED=0;
 * BFCL's real runs may print any of the six orders.
 */
const VALID_CLASSES_REPR = "{'first', 'business', 'economy'}";

/** Python's `str.isdigit()` (Unicode decimal digits; non-empty). */
function isDigitStr(s: string): boolean {
  return /^\p{Nd}+$/u.test(s);
}

class TravelApi implements ApiInstance {
  readonly className = "TravelAPI" as const;
  private random = new PyRandom(RANDOM_SEED);
  private creditCardList: PyValue = new PyDict();
  private bookingRecord: PyValue = new PyDict();
  private accessToken: PyValue = null;
  private tokenType: PyValue = null;
  private tokenExpiresIn: PyValue = null;
  private tokenScope: PyValue = null;
  private userFirstName: PyValue = null;
  private userLastName: PyValue = null;
  private budgetLimit: PyValue = null;
  private longContext = false;
  private loaded = false;
  /** The public methods, built once per class: each body acts on the instance it is called on. */
  private static readonly METHODS: ReadonlyMap<string, MethodSpec> = new Map<string, MethodSpec>([
    [
      "authenticate_travel",
      method(
        ["client_id", "client_secret", "refresh_token", "grant_type", "user_first_name", "user_last_name"].map(req),
        (a, self: TravelApi) => self.authenticate(a[3], a[4], a[5]),
      ),
    ],
    [
      "book_flight",
      method(["access_token", "card_id", "travel_date", "travel_from", "travel_to", "travel_class"].map(req), (a, self: TravelApi) =>
        self.bookFlight(a[0], a[1], a[2], a[3], a[4], a[5]),
      ),
    ],
    ["cancel_booking", method([req("access_token"), req("booking_id")], ([t, b], self: TravelApi) => self.cancelBooking(t, b))],
    [
      "compute_exchange_rate",
      method([req("base_currency"), req("target_currency"), req("value")], ([b, t, v], self: TravelApi) =>
        self.computeExchangeRate(b, t, v),
      ),
    ],
    ["contact_customer_support", method([req("booking_id"), req("message")], ([b], self: TravelApi) => self.contactCustomerSupport(b))],
    ["get_all_credit_cards", method([], (_args, self: TravelApi) => dict([["credit_card_list", self.creditCardList]]))],
    ["get_booking_history", method([req("access_token")], ([t], self: TravelApi) => self.getBookingHistory(t))],
    [
      "get_budget_fiscal_year",
      method([opt("lastModifiedAfter", null), opt("includeRemoved", null)], () => dict([["budget_fiscal_year", "2018"]])),
    ],
    [
      "get_credit_card_balance",
      method([req("access_token"), req("card_id")], ([t, c], self: TravelApi) => self.getCreditCardBalance(t, c)),
    ],
    [
      "get_flight_cost",
      method(["travel_from", "travel_to", "travel_date", "travel_class"].map(req), ([f, t, d, c], self: TravelApi) =>
        self.getFlightCost(f, t, d, c),
      ),
    ],
    [
      "get_nearest_airport_by_city",
      method([req("location")], ([l]) => dict([["nearest_airport", dictGet(AIRPORT_BY_CITY, l, "Unknown")]])),
    ],
    ["list_all_airports", method([], () => [...AIRPORTS])],
    [
      "purchase_insurance",
      method(["access_token", "insurance_type", "booking_id", "insurance_cost", "card_id"].map(req), (a, self: TravelApi) =>
        self.purchaseInsurance(a[0], a[2], a[3], a[4]),
      ),
    ],
    [
      "register_credit_card",
      method(
        ["access_token", "card_number", "expiration_date", "cardholder_name", "card_verification_number"].map(req),
        (a, self: TravelApi) => self.registerCreditCard(a[0], a[1], a[2], a[3], a[4]),
      ),
    ],
    [
      "retrieve_invoice",
      method([req("access_token"), opt("booking_id", null), opt("insurance_id", null)], ([t, b], self: TravelApi) =>
        self.retrieveInvoice(t, b),
      ),
    ],
    ["set_budget_limit", method([req("access_token"), req("budget_limit")], ([t, b], self: TravelApi) => self.setBudgetLimit(t, b))],
    [
      "travel_get_login_status",
      method([], (_args, self: TravelApi) => dict([["status", !(self.tokenExpiresIn === null || pyEquals(self.tokenExpiresIn, 0n))]])),
    ],
    [
      "verify_traveler_information",
      method(["first_name", "last_name", "date_of_birth", "passport_number"].map(req), ([f, l, d, p], self: TravelApi) =>
        self.verifyTraveler(f, l, d, p),
      ),
    ],
  ]);
  /** v3 final's class has no `get_booking_history`. */
  private static readonly METHODS_V3: ReadonlyMap<string, MethodSpec> = new Map(
    [...TravelApi.METHODS].filter(([name]) => name !== "get_booking_history"),
  );
  readonly methods: ReadonlyMap<string, MethodSpec>;
  /** v3 final's class: a wrong access token costs one of the token's remaining uses; exchanged values are not made floats. */
  private readonly v3: boolean;

  constructor(
    private readonly process: PythonProcess | undefined,
    private readonly today: TodayClock,
  ) {
    this.v3 = process?.classSource === "v3";
    this.methods = this.v3 ? TravelApi.METHODS_V3 : TravelApi.METHODS;
  }

  loadScenario(config: PyDict, longContext: boolean, filler?: LongContextData): void {
    this.random = new PyRandom(pyInt(dictGet(config, "random_seed", RANDOM_SEED)));
    this.creditCardList = dictGet(config, "credit_card_list", new PyDict());
    this.bookingRecord = dictGet(config, "booking_record", new PyDict());
    this.accessToken = dictGet(config, "access_token", null);
    this.tokenType = dictGet(config, "token_type", null);
    this.tokenExpiresIn = dictGet(config, "token_expires_in", null);
    this.tokenScope = dictGet(config, "token_scope", null);
    this.userFirstName = dictGet(config, "user_first_name", null);
    this.userLastName = dictGet(config, "user_last_name", null);
    this.budgetLimit = dictGet(config, "budget_limit", null);
    this.longContext = longContext;
    this.loaded = true;
    if (longContext) {
      this.mergeExtension(this.creditCardList, this.extension("CREDIT_CARD_EXTENSION", filler));
      this.mergeExtension(this.bookingRecord, this.extension("BOOKING_RECORD_EXTENSION", filler));
    }
  }

  /** The process-wide copy of a long_context.py dict (created from the filler on first use). */
  private extension(name: string, filler: LongContextData | undefined): PyDict {
    const make = () => {
      const v = filler?.get(name);
      if (!(v instanceof PyDict)) throw new Error(`long_context filler ${name} is missing`);
      return pyDeepCopy(v);
    };
    return this.process ? this.process.global(`travel_booking.${name}`, make) : make();
  }

  /** `_add_credit_cards` / `_add_booking_records`: insert records not present yet, by reference. */
  private mergeExtension(target: PyValue, extension: PyDict): void {
    for (const [id, info] of extension.entries()) {
      if (!pyContains(target, id)) setItem(target, id, info);
    }
  }

  publicState(): [string, PyValue][] {
    if (!this.loaded) return [];
    return [
      ["credit_card_list", this.creditCardList],
      ["booking_record", this.bookingRecord],
      ["access_token", this.accessToken],
      ["token_type", this.tokenType],
      ["token_expires_in", this.tokenExpiresIn],
      ["token_scope", this.tokenScope],
      ["user_first_name", this.userFirstName],
      ["user_last_name", this.userLastName],
      ["budget_limit", this.budgetLimit],
      ["long_context", this.longContext],
    ];
  }

  private expired(): boolean {
    return pyEquals(this.tokenExpiresIn, 0n);
  }

  /** `access_token != self.access_token`; in v3 a wrong token also takes one off `token_expires_in` (TypeError when it is None). */
  private wrongToken(token: PyValue): boolean {
    const wrong = pyNotEquals(token, this.accessToken);
    if (wrong && this.v3) this.tokenExpiresIn = augmented("-=", this.tokenExpiresIn, 1n);
    return wrong;
  }

  private authenticate(grantType: PyValue, firstName: PyValue, lastName: PyValue): PyValue {
    this.tokenExpiresIn = 2n;
    this.accessToken = this.random.randint(100000n, 999999n).toString();
    this.tokenType = "Bearer";
    this.tokenScope = grantType;
    this.userFirstName = firstName;
    this.userLastName = lastName;
    return dict([
      ["expires_in", 2n],
      ["access_token", this.accessToken],
      ["token_type", "Bearer"],
      ["scope", grantType],
    ]);
  }

  private registerCreditCard(token: PyValue, cardNumber: PyValue, expiration: PyValue, holder: PyValue, cvv: PyValue): PyValue {
    if (this.tokenExpiresIn === null) return dict([["error", "Token not initialized"]]);
    if (this.expired()) return dict([["error", "Token expired"]]);
    if (this.wrongToken(token)) return dict([["error", "Invalid access token"]]);
    if (pyContains(this.creditCardList, cardNumber)) return dict([["error", "Card already registered"]]);
    const cardId = this.random.randint(100000000000n, 999999999999n).toString();
    const card = dict([
      ["card_number", cardNumber],
      ["expiration_date", expiration],
      ["cardholder_name", holder],
      ["card_verification_number", cvv],
      ["balance", this.random.randint(10000n, 99999n)],
    ]);
    setItem(this.creditCardList, cardId, card);
    return dict([["card_id", cardId]]);
  }

  /** The route cost; ValueError (caught by `book_flight`) for an unknown route or class. */
  private flightCost(from: PyValue, to: PyValue, date: PyValue, travelClass: PyValue): { cost: number; all: number[] } {
    if (typeof from !== "string" || typeof to !== "string") keyOf(new PyTuple([from, to])); // hashing the (from, to) tuple: unhashable → TypeError
    const base = typeof from === "string" && typeof to === "string" ? ROUTE_COST.get(from)?.get(to) : undefined;
    if (base === undefined) throw new PyException("ValueError", "No available route for the given airports.");
    let factor: bigint;
    if (pyEquals(travelClass, "economy")) factor = 1n;
    else if (pyEquals(travelClass, "business")) factor = 2n;
    else if (pyEquals(travelClass, "first")) factor = 5n;
    else throw new PyException("ValueError", "Invalid travel class. Options are: economy, business, first.");
    let digitSum = 0n;
    for (const ch of pyIter(date)) {
      if (typeof ch !== "string") throw noAttribute(ch, "isdigit");
      if (isDigitStr(ch)) digitSum += pyInt(ch);
    }
    const multiplier = digitSum % 2n === 0n ? 2n : 1n;
    const cost = Number(base * factor * multiplier);
    const all = this.longContext ? ROUTES.map(([, , b]) => Number(b * factor * multiplier)) : [cost];
    return { cost, all };
  }

  private getFlightCost(from: PyValue, to: PyValue, date: PyValue, travelClass: PyValue): PyValue {
    return dict([["travel_cost_list", this.flightCost(from, to, date, travelClass).all]]);
  }

  private getCreditCardBalance(token: PyValue, cardId: PyValue): PyValue {
    if (this.expired()) return dict([["error", "Token expired"]]);
    if (this.wrongToken(token)) return dict([["error", "Invalid access token"]]);
    if (!pyContains(this.creditCardList, cardId)) {
      const ids = this.creditCardList instanceof PyDict ? this.creditCardList.keys() : pyIter(this.creditCardList);
      return dict([["error", "Card not registered. Here are a list of card_id's: " + pyRepr(ids)]]);
    }
    return dict([["card_balance", getItem(getItem(this.creditCardList, cardId), "balance")]]);
  }

  private bookFlight(token: PyValue, cardId: PyValue, date: PyValue, from: PyValue, to: PyValue, travelClass: PyValue): PyValue {
    const fail = (error: string) =>
      dict([
        ["booking_status", false],
        ["error", error],
      ]);
    if (this.expired()) return fail("Token expired");
    if (this.wrongToken(token)) return fail("Invalid access token");
    if (!pyContains(this.creditCardList, cardId)) return fail("Card not registered");
    const card = getItem(this.creditCardList, cardId);
    if (!pyContains(card, "balance")) return fail("Balance not found");
    if (!pyContains(AIRPORTS, from)) return fail(`Invalid departure airport code: ${pyStr(from)}`);
    if (!pyContains(AIRPORTS, to)) return fail(`Invalid destination airport code: ${pyStr(to)}`);
    try {
      pyStrptime(date, "%Y-%m-%d");
    } catch (e) {
      if (e instanceof PyException && e.pyType === "ValueError") return fail("Invalid date format. Use YYYY-MM-DD.");
      throw e;
    }
    keyOf(travelClass); // `in` on a set hashes the operand
    if (!(typeof travelClass === "string" && TRAVEL_CLASSES.includes(travelClass)))
      return fail(`Invalid travel class. Must be one of ${VALID_CLASSES_REPR}`);
    let travelCost: number;
    try {
      travelCost = this.flightCost(from, to, date, travelClass).cost;
    } catch (e) {
      if (e instanceof PyException && e.pyType === "ValueError") return fail(e.pyMessage);
      throw e;
    }
    if (pyLt(getItem(card, "balance"), travelCost)) return fail("Insufficient funds");
    if (this.budgetLimit !== null && pyLt(getItem(card, "balance"), this.budgetLimit)) return fail("Balance is less than budget limit");
    setItem(card, "balance", pySub(getItem(card, "balance"), travelCost));
    const bookingId = this.random.randint(1000000n, 9999999n).toString();
    const transactionId = this.random.randint(10000000n, 99999999n).toString();
    setItem(
      this.bookingRecord,
      bookingId,
      dict([
        ["card_id", cardId],
        ["travel_date", date],
        ["travel_from", from],
        ["travel_to", to],
        ["travel_class", travelClass],
        ["travel_cost", travelCost],
        ["transaction_id", transactionId],
      ]),
    );
    return dict([
      ["booking_id", bookingId],
      ["transaction_id", transactionId],
      ["booking_status", true],
      ["booking_history", this.longContext ? this.bookingRecord : new PyDict()],
    ]);
  }

  private retrieveInvoice(token: PyValue, bookingId: PyValue): PyValue {
    if (this.expired()) return dict([["error", "Token expired"]]);
    if (this.wrongToken(token)) return dict([["error", "Invalid access token"]]);
    if (!pyContains(this.bookingRecord, bookingId)) return dict([["error", "Booking not found"]]);
    const record = getItem(this.bookingRecord, bookingId);
    const invoice = dict([
      ["booking_id", bookingId],
      ...["travel_date", "travel_from", "travel_to", "travel_class", "travel_cost", "transaction_id"].map(
        (k) => [k, getItem(record, k)] as const,
      ),
    ]);
    return dict([["invoice", invoice]]);
  }

  private getBookingHistory(token: PyValue): PyValue {
    if (this.expired()) return dict([["error", "Token expired"]]);
    if (this.wrongToken(token)) return dict([["error", "Invalid access token"]]);
    return dict([["booking_history", pyDeepCopy(this.bookingRecord)]]);
  }

  private cancelBooking(token: PyValue, bookingId: PyValue): PyValue {
    const fail = (error: string) =>
      dict([
        ["cancel_status", false],
        ["error", error],
      ]);
    if (this.expired()) return fail("Token expired");
    if (this.wrongToken(token)) return fail("Invalid access token");
    if (!pyContains(this.bookingRecord, bookingId)) return fail("Booking not found");
    const record = getItem(this.bookingRecord, bookingId);
    const cardId = getItem(record, "card_id");
    const travelCost = getItem(record, "travel_cost");
    const card = getItem(this.creditCardList, cardId);
    setItem(card, "balance", pyAdd(getItem(card, "balance"), travelCost));
    (this.bookingRecord as PyDict).delete(bookingId);
    return dict([["cancel_status", true]]);
  }

  private computeExchangeRate(base: PyValue, target: PyValue, value: PyValue): PyValue {
    for (const [from, to, rate] of EXCHANGE_RATES) {
      if (pyEquals(base, from) && pyEquals(target, to))
        return dict([["exchanged_value", this.v3 ? pyMul(value, rate) : pyFloat(pyMul(value, rate))]]);
      if (pyEquals(base, to) && pyEquals(target, from)) return dict([["exchanged_value", pyRound(pyTrueDiv(value, rate), 2n)]]);
    }
    throw new PyException("ValueError", "No available exchange rate for the given currencies.");
  }

  private verifyTraveler(firstName: PyValue, lastName: PyValue, dateOfBirth: PyValue, passport: PyValue): PyValue {
    if (pyNotEquals(this.userFirstName, firstName) || pyNotEquals(this.userLastName, lastName)) {
      return dict([
        ["verification_status", false],
        [
          "verification_failure",
          "Cannot book flight information for another user." +
            `Expected ${pyStr(this.userFirstName)} ${pyStr(this.userLastName)}, got ${pyStr(firstName)} ${pyStr(lastName)}`,
        ],
      ]);
    }
    let age: number;
    try {
      const birth = pyStrptime(dateOfBirth, "%Y-%m-%d");
      const [y, m, d] = this.today();
      const beforeBirthday = m < birth.month || (m === birth.month && d < birth.day);
      age = y - birth.year - (beforeBirthday ? 1 : 0);
    } catch (e) {
      if (e instanceof PyException && e.pyType === "ValueError") {
        return dict([
          ["verification_status", false],
          ["verification_failure", "Invalid date of birth format. Please use YYYY-MM-DD."],
        ]);
      }
      throw e;
    }
    if (age < 18) {
      return dict([
        ["verification_status", false],
        ["verification_failure", "Traveler must be at least 18 years old."],
      ]);
    }
    if (!strStartsWith(passport, "US")) {
      return dict([
        ["verification_status", false],
        ["verification_failure", "Passport must be issued by the United States."],
      ]);
    }
    return dict([["verification_status", true]]);
  }

  private setBudgetLimit(token: PyValue, budgetLimit: PyValue): PyValue {
    if (this.expired()) return dict([["error", "Token expired"]]);
    if (this.wrongToken(token)) return dict([["error", "Invalid access token"]]);
    const limit = pyFloat(budgetLimit);
    this.budgetLimit = limit;
    return dict([["budget_limit", limit]]);
  }

  private purchaseInsurance(token: PyValue, bookingId: PyValue, cost: PyValue, cardId: PyValue): PyValue {
    const fail = (error: string) =>
      dict([
        ["insurance_status", false],
        ["error", error],
      ]);
    if (this.expired()) return fail("Token expired");
    if (this.wrongToken(token)) return fail("Invalid access token");
    if (this.budgetLimit !== null && pyLt(this.budgetLimit, cost)) return fail("Exceeded budget limit");
    if (!pyContains(this.bookingRecord, bookingId)) return fail("Booking not found");
    if (!pyContains(this.creditCardList, cardId)) return fail("Credit card not registered");
    const card = getItem(this.creditCardList, cardId);
    setItem(card, "balance", pySub(getItem(card, "balance"), cost));
    return dict([
      ["insurance_id", this.random.randint(100000000n, 999999999n).toString()],
      ["insurance_status", true],
    ]);
  }

  private contactCustomerSupport(bookingId: PyValue): PyValue {
    if (!pyContains(this.bookingRecord, bookingId)) return dict([["error", "Booking not found"]]);
    return dict([
      [
        "customer_support_message",
        "Thank you for contacting customer support. Your message has been received and we will get back to you shortly.",
      ],
    ]);
  }
}

/**
 * A fresh `TravelAPI()`. `today` pins `datetime.today()` for `verify_traveler_information`;
 * without it the process global `datetime.today` (a `TodayClock`, settable by whoever
 * creates the process) is used, else the machine's local date, as in BFCL.
 */
export function newTravelApi(process?: PythonProcess, today?: TodayClock): ApiInstance {
  const clock = today ?? process?.global<TodayClock>("datetime.today", () => systemToday) ?? systemToday;
  return new TravelApi(process, clock);
}
