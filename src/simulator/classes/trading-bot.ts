/**
 * BFCL's `TradingBot` (`trading_bot.py`): orders, an account, a watch list and stock quotes. More in this
 * folder's README.md.
 */
import { PyDict } from "../../python/containers.js";
import { PyDatetime, pyStrptime } from "../../python/datetime.js";
import { PyException } from "../../python/exception.js";
import { formatFixed } from "../../python/format.js";
import { pyTruthy } from "../../python/kinds.js";
import { pyEquals, pyGe, pyGt, pyLe, pyNotEquals } from "../../python/compare.js";
import { pyAbs, pyAdd, pyMul, pySub, pyTrueDiv } from "../../python/arithmetic.js";
import { pyFloat, pyInt } from "../../python/convert.js";
import { pyContains, pyIter } from "../../python/iterables.js";
import { PyRandom } from "../../python/random.js";
import { pyRepr, pyStr } from "../../python/repr.js";
import type { PyValue } from "../../python/value.js";
import type { ApiInstance, LongContextData, MethodSpec } from "../types.js";
import type { BfclVersion } from "../../bfcl/data.js";
import type { PythonProcess } from "./process.js";
import { augmented, anyGet, dict, dictGet, getItem, joinStr, method, noAttribute, opt, req, setItem, strLower } from "./class-support.js";

const RANDOM_SEED = 1053520n;
/** `CURRENT_TIME = datetime(2024, 9, 1, 10, 30)`. */
const CURRENT_TIME = new PyDatetime(2024, 9, 1, 10, 30);
const SECONDS_PER_DAY = 86400n;

function stock(price: number, percentChange: number, volume: number, ma5: number, ma20: number): PyDict {
  return dict([
    ["price", price],
    ["percent_change", percentChange],
    ["volume", volume],
    ["MA(5)", ma5],
    ["MA(20)", ma20],
  ]);
}

/**
 * The module's `DEFAULT_STATE`, one fresh value per key (the Python code deep-copies the
 * whole dict on every load and reads a key from it only when the config lacks that key;
 * the keys share no objects, so building just the missing ones is the same).
 */
const DEFAULT_STATE: ReadonlyMap<string, () => PyValue> = new Map<string, () => PyValue>([
  [
    "orders",
    () =>
      dict([
        [
          12345n,
          dict([
            ["id", 12345n],
            ["order_type", "Buy"],
            ["symbol", "AAPL"],
            ["price", 210.65],
            ["amount", 10n],
            ["status", "Completed"],
          ]),
        ],
        [
          12446n,
          dict([
            ["id", 12446n],
            ["order_type", "Sell"],
            ["symbol", "GOOG"],
            ["price", 2840.56],
            ["amount", 5n],
            ["status", "Pending"],
          ]),
        ],
      ]),
  ],
  [
    "account_info",
    () =>
      dict([
        ["account_id", 12345n],
        ["balance", 10000.0],
        ["binding_card", 1974202140965533n],
      ]),
  ],
  ["authenticated", () => false],
  ["market_status", () => "Closed"],
  ["order_counter", () => 12446n],
  [
    "stocks",
    () =>
      dict([
        ["AAPL", stock(227.16, 0.17, 2.552, 227.11, 227.09)],
        ["GOOG", stock(2840.34, 0.24, 1.123, 2835.67, 2842.15)],
        ["TSLA", stock(667.92, -0.12, 1.654, 671.15, 668.2)],
        ["MSFT", stock(310.23, 0.09, 3.234, 309.88, 310.11)],
        ["NVDA", stock(220.34, 0.34, 1.234, 220.45, 220.67)],
        ["ALPH", stock(1320.45, -0.08, 1.567, 1321.12, 1325.78)],
        ["OMEG", stock(457.23, 0.12, 2.345, 456.78, 458.12)],
        ["QUAS", stock(725.89, -0.03, 1.789, 726.45, 728.0)],
        ["NEPT", stock(88.34, 0.19, 0.654, 88.21, 88.67)],
        ["SYNX", stock(345.67, 0.11, 2.112, 345.34, 346.12)],
        ["ZETA", stock(22.09, -0.05, 0.789, 22.12, 22.34)],
      ]),
  ],
  ["watch_list", () => ["NVDA"]],
  ["transaction_history", () => []],
  ["random_seed", () => RANDOM_SEED],
]);

const SYMBOL_BY_NAME = dict([
  ["Apple", "AAPL"],
  ["Google", "GOOG"],
  ["Tesla", "TSLA"],
  ["Microsoft", "MSFT"],
  ["Nvidia", "NVDA"],
  ["Zeta Corp", "ZETA"],
  ["Alpha Tech", "ALPH"],
  ["Omega Industries", "OMEG"],
  ["Quasar Ltd.", "QUAS"],
  ["Neptune Systems", "NEPT"],
  ["Synex Solutions", "SYNX"],
  ["Amazon", "AMZN"],
  ["Gorilla", "GORI"],
]);

/** v3 final's table has no Gorilla. */
const SYMBOL_BY_NAME_V3 = new PyDict(SYMBOL_BY_NAME.entries().filter(([name]) => name !== "Gorilla"));

/** Python's `str.isdigit()` for the keys BFCL configs use (Unicode decimal digits). */
function isDigitString(s: string): boolean {
  return /^\p{Nd}+$/u.test(s);
}

/** `template.format(**fields)` for templates made of text, `{name}` fields and `{{`/`}}` escapes. */
function formatNamed(template: PyValue, fields: ReadonlyMap<string, PyValue>): string {
  if (typeof template !== "string") throw noAttribute(template, "format");
  let out = "";
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === "{") {
      if (template[i + 1] === "{") {
        out += "{";
        i++;
        continue;
      }
      const close = template.indexOf("}", i);
      if (close < 0) throw new PyException("ValueError", "expected '}' before end of string");
      const name = template.slice(i + 1, close);
      const value = fields.get(name);
      if (value === undefined) throw new PyException("KeyError", pyRepr(name));
      out += pyStr(value);
      i = close;
    } else if (ch === "}") {
      if (template[i + 1] !== "}") throw new PyException("ValueError", "Single '}' encountered in format string");
      out += "}";
      i++;
    } else out += ch;
  }
  return out;
}

function listRemove(list: PyValue, x: PyValue): void {
  if (!Array.isArray(list)) throw noAttribute(list, "remove");
  const i = list.findIndex((y) => y === x || pyEquals(y, x));
  if (i < 0) throw new PyException("ValueError", "list.remove(x): x not in list");
  list.splice(i, 1);
}

function listAppend(list: PyValue, x: PyValue): void {
  if (!Array.isArray(list)) throw noAttribute(list, "append");
  list.push(x);
}

class TradingBot implements ApiInstance {
  readonly className = "TradingBot" as const;
  private orders: PyValue = new PyDict();
  private accountInfo: PyValue = new PyDict();
  private authenticated: PyValue = false;
  private marketStatus: PyValue = "Closed";
  private orderCounter: PyValue = 0n;
  private stocks: PyValue = new PyDict();
  private watchList: PyValue = [];
  private transactionHistory: PyValue = [];
  private longContext = false;
  private filler: LongContextData | undefined;
  private random = new PyRandom(RANDOM_SEED);
  private loaded = false;
  /** The public methods, built once per class: each body acts on the instance it is called on. */
  private static readonly METHODS: ReadonlyMap<string, MethodSpec> = new Map<string, MethodSpec>([
    ["add_to_watchlist", method([req("stock")], ([s], self: TradingBot) => self.addToWatchlist(s))],
    ["cancel_order", method([req("order_id")], ([id], self: TradingBot) => self.cancelOrder(id))],
    [
      "filter_stocks_by_price",
      method([req("stocks"), req("min_price"), req("max_price")], ([s, lo, hi], self: TradingBot) => self.filterStocksByPrice(s, lo, hi)),
    ],
    ["fund_account", method([req("amount")], ([a], self: TradingBot) => self.fundAccount(a))],
    ["get_account_info", method([], (_args, self: TradingBot) => self.getAccountInfo())],
    ["get_available_stocks", method([req("sector")], ([s], self: TradingBot) => self.getAvailableStocks(s))],
    ["get_current_time", method([], () => dict([["current_time", CURRENT_TIME.strftime("%I:%M %p")]]))],
    ["get_order_details", method([req("order_id")], ([id], self: TradingBot) => self.getOrderDetails(id))],
    ["get_order_history", method([], (_args, self: TradingBot) => self.getOrderHistory())],
    ["get_stock_info", method([req("symbol")], ([s], self: TradingBot) => self.getStockInfo(s))],
    ["get_symbol_by_name", method([req("name")], ([n]) => dict([["symbol", dictGet(SYMBOL_BY_NAME, n, "Stock not found")]]))],
    [
      "get_transaction_history",
      method([opt("start_date", null), opt("end_date", null)], ([s, e], self: TradingBot) => self.getTransactionHistory(s, e)),
    ],
    ["get_watchlist", method([], (_args, self: TradingBot) => self.getWatchlist())],
    ["notify_price_change", method([req("stocks"), req("threshold")], ([s, t], self: TradingBot) => self.notifyPriceChange(s, t))],
    [
      "place_order",
      method([req("order_type"), req("symbol"), req("price"), req("amount")], ([t, s, p, a], self: TradingBot) =>
        self.placeOrder(t, s, p, a),
      ),
    ],
    ["remove_stock_from_watchlist", method([req("symbol")], ([s], self: TradingBot) => self.removeStockFromWatchlist(s))],
    ["trading_get_login_status", method([], (_args, self: TradingBot) => dict([["status", pyTruthy(self.authenticated)]]))],
    ["trading_login", method([req("username"), req("password")], (_args, self: TradingBot) => self.tradingLogin())],
    ["trading_logout", method([], (_args, self: TradingBot) => self.tradingLogout())],
    ["withdraw_funds", method([req("amount")], ([a], self: TradingBot) => self.withdrawFunds(a))],
  ]);
  /**
   * v3 final's class: no `withdraw_funds` but `make_transaction` (deposits and
   * withdrawals on an account id), `update_market_status` and `update_stock_price`;
   * `place_order` does not check the balance; `add_to_watchlist` answers under `symbol`.
   */
  private static readonly METHODS_V3: ReadonlyMap<string, MethodSpec> = new Map<string, MethodSpec>([
    ...[...TradingBot.METHODS].filter(([name]) => name !== "withdraw_funds"),
    ["add_to_watchlist", method([req("stock")], ([s], self: TradingBot) => self.addToWatchlist(s, "symbol"))],
    ["get_symbol_by_name", method([req("name")], ([n]) => dict([["symbol", dictGet(SYMBOL_BY_NAME_V3, n, "Stock not found")]]))],
    [
      "make_transaction",
      method([req("account_id"), req("xact_type"), req("amount")], ([id, t, a], self: TradingBot) => self.makeTransaction(id, t, a)),
    ],
    [
      "place_order",
      method([req("order_type"), req("symbol"), req("price"), req("amount")], ([t, s, p, a], self: TradingBot) =>
        self.placeOrder(t, s, p, a, false),
      ),
    ],
    ["update_market_status", method([req("current_time_str")], ([t], self: TradingBot) => self.updateMarketStatus(t))],
    ["update_stock_price", method([req("symbol"), req("new_price")], ([s, p], self: TradingBot) => self.updateStockPrice(s, p))],
  ] as [string, MethodSpec][]);
  readonly methods: ReadonlyMap<string, MethodSpec>;

  constructor(classSource: BfclVersion) {
    this.methods = classSource === "v3" ? TradingBot.METHODS_V3 : TradingBot.METHODS;
  }

  loadScenario(config: PyDict, longContext: boolean, filler?: LongContextData): void {
    // Python reads each key with a fallback into a fresh deep copy of DEFAULT_STATE
    const pick = (key: string): PyValue => {
      const v = config.get(key);
      return v === undefined ? (DEFAULT_STATE.get(key) as () => PyValue)() : v;
    };
    const rawOrders = pick("orders");
    if (!(rawOrders instanceof PyDict)) throw noAttribute(rawOrders, "items");
    this.orders = new PyDict(rawOrders.entries().map(([k, v]) => [typeof k === "string" && isDigitString(k) ? pyInt(k) : k, v] as const));
    this.accountInfo = pick("account_info");
    this.authenticated = pick("authenticated");
    this.marketStatus = pick("market_status");
    this.orderCounter = pick("order_counter");
    this.stocks = pick("stocks");
    this.watchList = pick("watch_list");
    this.transactionHistory = pick("transaction_history");
    this.longContext = longContext;
    this.filler = filler;
    const seed = pick("random_seed");
    this.random = new PyRandom(pyInt(seed));
    this.loaded = true;
  }

  publicState(): [string, PyValue][] {
    if (!this.loaded) return [];
    return [
      ["orders", this.orders],
      ["account_info", this.accountInfo],
      ["authenticated", this.authenticated],
      ["market_status", this.marketStatus],
      ["order_counter", this.orderCounter],
      ["stocks", this.stocks],
      ["watch_list", this.watchList],
      ["transaction_history", this.transactionHistory],
      ["long_context", this.longContext],
    ];
  }

  /** A long_context.py constant; loading with long_context=True requires the filler. */
  private fill(name: string): PyValue {
    const v = this.filler?.get(name);
    if (v === undefined) throw new Error(`long_context filler ${name} is missing`);
    return v;
  }

  /** `_generate_transaction_timestamp`: CURRENT_TIME + randint over one day, as local wall-clock text. */
  private transactionTimestamp(): string {
    const offset = this.random.randint(0n, SECONDS_PER_DAY);
    return CURRENT_TIME.plusSeconds(Number(offset)).strftime("%Y-%m-%d %H:%M:%S");
  }

  private getStockInfo(symbol: PyValue): PyValue {
    if (!pyContains(this.stocks, symbol)) return dict([["error", `Stock with symbol '${pyStr(symbol)}' not found.`]]);
    if (this.longContext) {
      const original = getItem(this.stocks, symbol);
      if (!(original instanceof PyDict)) throw noAttribute(original, "copy");
      const copy = new PyDict(original.entries());
      copy.set("MA(5)", this.fill("MA_5_EXTENSION"));
      copy.set("MA(20)", this.fill("MA_20_EXTENSION"));
      return copy;
    }
    return getItem(this.stocks, symbol);
  }

  private getOrderDetails(orderId: PyValue): PyValue {
    if (!pyContains(this.orders, orderId)) {
      const keys = this.orders instanceof PyDict ? this.orders.keys() : pyIter(this.orders);
      return dict([["error", `Order with ID ${pyStr(orderId)} not found.` + "Here is the list of orders_id: " + pyRepr(keys)]]);
    }
    if (this.longContext) {
      const original = getItem(this.orders, orderId);
      if (!(original instanceof PyDict)) throw noAttribute(original, "copy");
      const order = new PyDict(original.entries());
      const symbol = getItem(order, "symbol");
      const extension = this.fill("ORDER_DETAIL_EXTENSION");
      if (!(extension instanceof PyDict)) throw noAttribute(extension, "items");
      const formatted = new PyDict();
      for (const [key, value] of extension.entries()) {
        try {
          formatted.set(key, formatNamed(value, new Map([["symbol", symbol]])));
        } catch (e) {
          if (e instanceof PyException && e.pyType === "KeyError") return dict([["error", `KeyError during formatting: ${e.pyMessage}`]]);
          throw e;
        }
      }
      order.set("metadata", formatted);
      return order;
    }
    return getItem(this.orders, orderId);
  }

  private cancelOrder(orderId: PyValue): PyValue {
    if (!pyContains(this.orders, orderId)) return dict([["error", `Order with ID ${pyStr(orderId)} not found.`]]);
    const order = getItem(this.orders, orderId);
    if (pyEquals(getItem(order, "status"), "Completed"))
      return dict([["error", `Can't cancel order ${pyStr(orderId)}. Order is already completed.`]]);
    setItem(order, "status", "Cancelled");
    return dict([
      ["order_id", orderId],
      ["status", "Cancelled"],
    ]);
  }

  private placeOrder(orderType: PyValue, symbol: PyValue, price: PyValue, amount: PyValue, checkFunds = true): PyValue {
    if (!pyTruthy(this.authenticated)) return dict([["error", "User not authenticated. Please log in to place an order."]]);
    if (!pyContains(this.stocks, symbol)) return dict([["error", `Invalid stock symbol: ${pyStr(symbol)}`]]);
    if (pyLe(price, 0n) || pyLe(amount, 0n)) return dict([["error", "Price and amount must be positive values."]]);
    if (checkFunds && strLower(orderType) === "buy") {
      const totalCost = pyMul(pyFloat(price), pyInt(amount));
      if (pyGt(totalCost, anyGet(this.accountInfo, "balance", 0n))) {
        const balance = anyGet(this.accountInfo, "balance", 0n);
        return dict([
          ["error", "Insufficient funds: required " + `$${formatFixed(totalCost, 2)} but only $${formatFixed(balance, 2)} available.`],
        ]);
      }
    }
    const floatPrice = pyFloat(price);
    const orderId = this.orderCounter;
    setItem(
      this.orders,
      orderId,
      dict([
        ["id", orderId],
        ["order_type", orderType],
        ["symbol", symbol],
        ["price", floatPrice],
        ["amount", amount],
        ["status", "Open"],
      ]),
    );
    this.orderCounter = pyAdd(this.orderCounter, 1n);
    return dict([
      ["order_id", orderId],
      ["order_type", orderType],
      ["status", "Pending"],
      ["price", floatPrice],
      ["amount", amount],
    ]);
  }

  private withdrawFunds(amount: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return dict([["error", "User not authenticated. Please log in to make a transaction."]]);
    if (pyNotEquals(this.marketStatus, "Open")) return dict([["error", "Market is closed. Transactions are not allowed."]]);
    if (pyLe(amount, 0n)) return dict([["error", "Transaction amount must be positive."]]);
    if (pyGt(amount, getItem(this.accountInfo, "balance"))) return dict([["error", "Insufficient funds for withdrawal."]]);
    setItem(this.accountInfo, "balance", pySub(getItem(this.accountInfo, "balance"), amount));
    listAppend(
      this.transactionHistory,
      dict([
        ["type", "withdrawal"],
        ["amount", amount],
        ["timestamp", this.transactionTimestamp()],
      ]),
    );
    return dict([
      ["status", "Withdrawal successful"],
      ["new_balance", getItem(this.accountInfo, "balance")],
    ]);
  }

  private getAccountInfo(): PyValue {
    if (!pyTruthy(this.authenticated)) return dict([["error", "User not authenticated. Please log in to view account information."]]);
    return this.accountInfo;
  }

  private tradingLogin(): PyValue {
    if (pyTruthy(this.authenticated)) return dict([["status", "Already logged in"]]);
    this.authenticated = true;
    return dict([["status", "Logged in successfully"]]);
  }

  private tradingLogout(): PyValue {
    if (!pyTruthy(this.authenticated)) return dict([["status", "No user is currently logged in"]]);
    this.authenticated = false;
    return dict([["status", "Logged out successfully"]]);
  }

  private fundAccount(amount: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return dict([["error", "User not authenticated. Please log in to fund the account."]]);
    if (pyLe(amount, 0n)) return dict([["error", "Funding amount must be positive."]]);
    setItem(this.accountInfo, "balance", pyAdd(getItem(this.accountInfo, "balance"), amount));
    listAppend(
      this.transactionHistory,
      dict([
        ["type", "deposit"],
        ["amount", amount],
        ["timestamp", this.transactionTimestamp()],
      ]),
    );
    return dict([
      ["status", "Account funded successfully"],
      ["new_balance", getItem(this.accountInfo, "balance")],
    ]);
  }

  private removeStockFromWatchlist(symbol: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return dict([["error", "User not authenticated. Please log in to modify the watchlist."]]);
    if (!pyContains(this.watchList, symbol)) return dict([["error", `Stock ${pyStr(symbol)} not found in watchlist.`]]);
    listRemove(this.watchList, symbol);
    return dict([["status", `Stock ${pyStr(symbol)} removed from watchlist successfully.`]]);
  }

  private getWatchlist(): PyValue {
    if (!pyTruthy(this.authenticated)) return ["Error: User not authenticated. Please log in to view the watchlist."];
    if (this.longContext) {
      if (!Array.isArray(this.watchList)) throw noAttribute(this.watchList, "copy");
      return [...this.watchList, ...pyIter(this.fill("WATCH_LIST_EXTENSION"))];
    }
    return dict([["watchlist", this.watchList]]);
  }

  private getOrderHistory(): PyValue {
    if (!pyTruthy(this.authenticated)) return [dict([["error", "User not authenticated. Please log in to view order history."]])];
    return dict([["history", this.orders instanceof PyDict ? this.orders.keys() : pyIter(this.orders)]]);
  }

  private getTransactionHistory(startDate: PyValue, endDate: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return [dict([["error", "User not authenticated. Please log in to view transaction history."]])];
    const start = pyTruthy(startDate) ? pyStrptime(startDate, "%Y-%m-%d") : PyDatetime.min;
    const end = pyTruthy(endDate) ? pyStrptime(endDate, "%Y-%m-%d") : PyDatetime.max;
    const filtered = pyIter(this.transactionHistory).filter((t) => {
      const when = pyStrptime(getItem(t, "timestamp"), "%Y-%m-%d %H:%M:%S");
      return start.ordinalSeconds <= when.ordinalSeconds && when.ordinalSeconds <= end.ordinalSeconds;
    });
    if (this.longContext) filtered.push(...pyIter(this.fill("TRANSACTION_HISTORY_EXTENSION")));
    return dict([["transaction_history", filtered]]);
  }

  private getAvailableStocks(sector: PyValue): PyValue {
    const technology: PyValue[] = ["AAPL", "GOOG", "MSFT", "NVDA"];
    const automobile: PyValue[] = ["TSLA", "F", "GM"];
    if (this.longContext) {
      technology.push(...pyIter(this.fill("TECHNOLOGY_EXTENSION")));
      automobile.push(...pyIter(this.fill("AUTOMOBILE_EXTENSION")));
    }
    const sectors = dict([
      ["Technology", technology],
      ["Automobile", automobile],
    ]);
    return dict([["stock_list", dictGet(sectors, sector, [])]]);
  }

  private filterStocksByPrice(stocks: PyValue, minPrice: PyValue, maxPrice: PyValue): PyValue {
    const priceOf = (symbol: PyValue) => anyGet(anyGet(this.stocks, symbol, new PyDict()), "price", 0n);
    const filtered = pyIter(stocks).filter((symbol) => pyGe(priceOf(symbol), minPrice) && pyLe(priceOf(symbol), maxPrice));
    return dict([["filtered_stocks", filtered]]);
  }

  private addToWatchlist(stock: PyValue, resultKey = "watchlist"): PyValue {
    if (!pyContains(this.watchList, stock)) {
      if (pyContains(this.stocks, stock)) listAppend(this.watchList, stock);
    }
    return dict([[resultKey, this.watchList]]);
  }

  /** v3's `make_transaction`: a deposit or a withdrawal on the account with that id, while the market is open. */
  private makeTransaction(accountId: PyValue, kind: PyValue, amount: PyValue): PyValue {
    if (!pyTruthy(this.authenticated)) return dict([["error", "User not authenticated. Please log in to make a transaction."]]);
    if (pyNotEquals(this.marketStatus, "Open")) return dict([["error", "Market is closed. Transactions are not allowed."]]);
    if (pyNotEquals(accountId, getItem(this.accountInfo, "account_id")))
      return dict([["error", `Account with ID ${pyStr(accountId)} not found.`]]);
    if (pyLe(amount, 0n)) return dict([["error", "Transaction amount must be positive."]]);
    if (pyEquals(kind, "deposit")) {
      setItem(this.accountInfo, "balance", augmented("+=", getItem(this.accountInfo, "balance"), amount));
      listAppend(
        this.transactionHistory,
        dict([
          ["type", "deposit"],
          ["amount", amount],
          ["timestamp", this.transactionTimestamp()],
        ]),
      );
      return dict([
        ["status", "Deposit successful"],
        ["new_balance", getItem(this.accountInfo, "balance")],
      ]);
    }
    if (pyEquals(kind, "withdrawal")) {
      if (pyGt(amount, getItem(this.accountInfo, "balance"))) return dict([["error", "Insufficient funds for withdrawal."]]);
      setItem(this.accountInfo, "balance", augmented("-=", getItem(this.accountInfo, "balance"), amount));
      listAppend(
        this.transactionHistory,
        dict([
          ["type", "withdrawal"],
          ["amount", amount],
          ["timestamp", this.transactionTimestamp()],
        ]),
      );
      return dict([
        ["status", "Withdrawal successful"],
        ["new_balance", getItem(this.accountInfo, "balance")],
      ]);
    }
    return dict([["error", "Invalid transaction type. Use 'deposit' or 'withdrawal'."]]);
  }

  /** v3's `update_market_status`: Open from 9:30 AM to 4:00 PM inclusive, for a `HH:MM AM/PM` time. */
  private updateMarketStatus(time: PyValue): PyValue {
    const t = pyStrptime(time, "%I:%M %p");
    const seconds = t.hour * 3600 + t.minute * 60 + t.second;
    this.marketStatus = seconds >= 9 * 3600 + 30 * 60 && seconds <= 16 * 3600 ? "Open" : "Closed";
    return dict([["status", this.marketStatus]]);
  }

  /** v3's `update_stock_price`: sets the price and the percent change from the old price. */
  private updateStockPrice(symbol: PyValue, newPrice: PyValue): PyValue {
    if (!pyContains(this.stocks, symbol)) return dict([["error", `Stock with symbol '${pyStr(symbol)}' not found.`]]);
    if (pyLe(newPrice, 0n)) return dict([["error", "New price must be a positive value."]]);
    const stock = getItem(this.stocks, symbol);
    const oldPrice = getItem(stock, "price");
    setItem(stock, "price", newPrice);
    setItem(stock, "percent_change", pyMul(pyTrueDiv(pySub(newPrice, oldPrice), oldPrice), 100n));
    return dict([
      ["symbol", symbol],
      ["old_price", oldPrice],
      ["new_price", newPrice],
    ]);
  }

  private notifyPriceChange(stocks: PyValue, threshold: PyValue): PyValue {
    const changed = pyIter(stocks).filter(
      (symbol) => pyContains(this.stocks, symbol) && pyGe(pyAbs(getItem(getItem(this.stocks, symbol), "percent_change")), threshold),
    );
    if (changed.length > 0) return dict([["notification", `Stocks ${joinStr(", ", changed)} have significant price changes.`]]);
    return dict([["notification", "No significant price changes in the selected stocks."]]);
  }
}

/** A fresh `TradingBot()` of the process's class sources (v4 without a process); it keeps no module-level state. */
export function newTradingBot(process?: PythonProcess): ApiInstance {
  return new TradingBot(process?.classSource ?? "v4");
}
