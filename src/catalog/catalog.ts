/**
 * The function catalog: every public function of the eight multi-turn API classes, labelled once from what a
 * successful call does to the public (non-underscore) attributes that BFCL's state checker compares between
 * the model's world and the reference's. More in this folder's README.md.
 */
import type { BfclVersion } from "../bfcl/data.js";
import type { ApiClass, CatalogEntry, FunctionKind } from "./types.js";

type Row = readonly [name: string, kind: FunctionKind, reason: string, onlyIn?: BfclVersion];

const rows: Record<ApiClass, readonly Row[]> = {
  GorillaFileSystem: [
    ["cat", "read", "returns a file's content; the tree under root is untouched"],
    ["cd", "read", "moves only the private current-directory pointer, which the checker ignores"],
    ["cp", "mutate", "adds a copy of a file or directory to the tree"],
    ["diff", "read", "compares two files' contents without changing them"],
    ["du", "read", "sums sizes under the current directory"],
    ["echo", "mutate", "writes content into an existing file when given a file name; otherwise only prints (decided per call)"],
    ["find", "read", "lists matching paths"],
    ["grep", "read", "returns matching lines of a file"],
    ["ls", "read", "lists the current directory"],
    ["mkdir", "mutate", "adds a directory to the tree"],
    ["mv", "mutate", "moves or renames an entry in the tree"],
    ["pwd", "read", "reports the current path"],
    ["rm", "mutate", "deletes an entry from the tree"],
    ["rmdir", "mutate", "deletes a directory from the tree"],
    ["sort", "read", "returns a file's lines sorted; the file itself is unchanged"],
    ["tail", "read", "returns the last lines of a file"],
    ["touch", "mutate", "adds an empty file to the tree"],
    ["wc", "read", "counts lines, words or characters of a file"],
  ],
  MathAPI: [
    ["absolute_value", "read", "pure arithmetic; the class keeps no compared state"],
    ["add", "read", "pure arithmetic; the class keeps no compared state"],
    ["divide", "read", "pure arithmetic; the class keeps no compared state"],
    ["imperial_si_conversion", "read", "pure unit conversion; no compared state"],
    ["logarithm", "read", "pure arithmetic (only mpmath's global precision is touched, not the instance)"],
    ["max_value", "read", "pure arithmetic; the class keeps no compared state"],
    ["mean", "read", "pure arithmetic; the class keeps no compared state"],
    ["min_value", "read", "pure arithmetic; the class keeps no compared state"],
    ["multiply", "read", "pure arithmetic; the class keeps no compared state"],
    ["percentage", "read", "pure arithmetic; the class keeps no compared state"],
    ["power", "read", "pure arithmetic; the class keeps no compared state"],
    ["round_number", "read", "pure arithmetic; the class keeps no compared state"],
    ["si_unit_conversion", "read", "pure unit conversion; no compared state"],
    ["square_root", "read", "pure arithmetic (only the decimal context precision is touched, not the instance)"],
    ["standard_deviation", "read", "pure arithmetic; the class keeps no compared state"],
    ["subtract", "read", "pure arithmetic; the class keeps no compared state"],
    ["sum_values", "read", "pure arithmetic; the class keeps no compared state"],
  ],
  MessageAPI: [
    ["add_contact", "mutate", "adds a user to user_map and bumps user_count"],
    ["delete_message", "mutate", "removes a message from the inbox"],
    ["get_message_stats", "read", "counts the current user's messages and contacts"],
    ["get_user_id", "read", "looks a name up in user_map"],
    ["list_users", "read", "lists user_map's names"],
    ["message_get_login_status", "read", "reports whether a user is logged in"],
    ["message_login", "login", "sets current_user: logs a user in"],
    ["search_messages", "read", "returns inbox messages containing a keyword"],
    ["send_message", "mutate", "appends a message to the inbox and bumps message_count"],
    ["view_messages_sent", "read", "groups the current user's sent messages by receiver"],
  ],
  TwitterAPI: [
    ["authenticate_twitter", "login", "sets authenticated: logs the user in"],
    ["comment", "mutate", "adds a comment under a tweet"],
    ["follow_user", "mutate", "appends a user to following_list"],
    ["get_tweet", "read", "returns one tweet"],
    ["get_tweet_comments", "read", "returns a tweet's comments"],
    ["get_user_stats", "read", "counts a user's tweets, followers and retweets"],
    ["get_user_tweets", "read", "returns a user's tweets"],
    ["list_all_following", "read", "returns following_list"],
    ["mention", "mutate", "adds usernames to a stored tweet's mentions"],
    ["post_tweet", "mutate", "stores a new tweet and bumps tweet_counter"],
    ["posting_get_login_status", "read", "reports authenticated"],
    ["retweet", "mutate", "records a retweet under the user"],
    ["search_tweets", "read", "returns tweets containing a keyword"],
    ["unfollow_user", "mutate", "removes a user from following_list"],
  ],
  TicketAPI: [
    ["close_ticket", "mutate", "sets a stored ticket's status to Closed"],
    ["create_ticket", "mutate", "appends a ticket to ticket_queue and bumps ticket_counter"],
    ["edit_ticket", "mutate", "overwrites fields of a stored ticket"],
    ["get_ticket", "read", "returns one ticket"],
    ["get_user_tickets", "read", "returns the current user's tickets"],
    ["logout", "login", "clears current_user: logs the user out"],
    ["resolve_ticket", "mutate", "sets a stored ticket's status and resolution"],
    ["ticket_get_login_status", "read", "reports whether a user is logged in"],
    ["ticket_login", "login", "sets current_user: logs a user in"],
  ],
  TradingBot: [
    ["add_to_watchlist", "mutate", "appends a symbol to watch_list"],
    ["cancel_order", "mutate", "sets a stored order's status to Cancelled"],
    ["filter_stocks_by_price", "read", "filters given symbols by stored price"],
    ["fund_account", "mutate", "raises the balance and appends a transaction"],
    ["get_account_info", "read", "returns account_info"],
    ["get_available_stocks", "read", "returns a fixed sector list (long-context filler is added to a local copy)"],
    ["get_current_time", "read", "returns a fixed clock time"],
    ["get_order_details", "read", "returns one order (long-context metadata goes on a copy)"],
    ["get_order_history", "read", "lists order ids"],
    ["get_stock_info", "read", "returns a stock's record (long-context fields go on a copy)"],
    ["get_symbol_by_name", "read", "looks a company name up in a fixed table"],
    ["get_transaction_history", "read", "returns filtered transactions (filler goes on a new list)"],
    ["get_watchlist", "read", "returns watch_list (filler goes on a copy)"],
    ["make_transaction", "mutate", "BFCL v3 only: deposits or withdraws, changing the balance and appending a transaction", "v3"],
    ["notify_price_change", "read", "reports stocks whose change exceeds a threshold"],
    ["place_order", "mutate", "stores a new order and bumps order_counter"],
    ["remove_stock_from_watchlist", "mutate", "removes a symbol from watch_list"],
    ["trading_get_login_status", "read", "reports authenticated"],
    ["trading_login", "login", "sets authenticated: logs the user in"],
    ["trading_logout", "login", "clears authenticated: logs the user out"],
    ["update_market_status", "mutate", "BFCL v3 only: sets market_status from the given time", "v3"],
    ["update_stock_price", "mutate", "BFCL v3 only: sets a stock's price and percent_change", "v3"],
    ["withdraw_funds", "mutate", "lowers the balance and appends a transaction", "v4"],
  ],
  TravelAPI: [
    ["authenticate_travel", "login", "sets the access token and user name fields: logs the user in"],
    ["book_flight", "mutate", "charges a card and stores a booking"],
    ["cancel_booking", "mutate", "refunds the card and deletes the booking"],
    ["compute_exchange_rate", "read", "converts an amount at a fixed rate"],
    ["contact_customer_support", "read", "returns a canned support reply"],
    ["get_all_credit_cards", "read", "returns credit_card_list"],
    ["get_booking_history", "read", "returns booking_record", "v4"],
    ["get_budget_fiscal_year", "read", "returns a fixed fiscal-year budget"],
    ["get_credit_card_balance", "read", "returns one card's balance"],
    ["get_flight_cost", "read", "computes fares (only a private lookup table is touched)"],
    ["get_nearest_airport_by_city", "read", "looks a city up in a fixed table"],
    ["list_all_airports", "read", "returns a fixed airport list"],
    ["purchase_insurance", "mutate", "charges a card for insurance"],
    ["register_credit_card", "mutate", "adds a card to credit_card_list"],
    ["retrieve_invoice", "read", "returns a booking's invoice"],
    ["set_budget_limit", "mutate", "sets budget_limit"],
    ["travel_get_login_status", "read", "reports whether a token is held"],
    ["verify_traveler_information", "read", "checks traveler details against fixed rules"],
  ],
  VehicleControlAPI: [
    ["activateParkingBrake", "mutate", "engages or releases the parking brake (parkingBrakeStatus)"],
    ["adjustClimateControl", "mutate", "sets temperature, fan speed and AC mode"],
    ["check_tire_pressure", "read", "reports the four tire pressures"],
    ["displayCarStatus", "read", "reports one part's status"],
    ["display_log", "read", "echoes the given messages"],
    ["estimate_distance", "read", "looks a city pair up in a fixed table"],
    ["estimate_drive_feasibility_by_mileage", "read", "compares a distance with the fuel range"],
    ["fillFuelTank", "mutate", "raises fuelLevel"],
    ["find_nearest_tire_shop", "read", "returns a fixed shop"],
    ["gallon_to_liter", "read", "pure unit conversion"],
    ["get_current_speed", "read", "returns a fixed speed"],
    ["get_outside_temperature_from_google", "read", "returns a temperature; the instance is untouched"],
    ["get_outside_temperature_from_weather_com", "read", "returns a temperature; the instance is untouched"],
    ["get_zipcode_based_on_city", "read", "looks a city up in a fixed table"],
    ["liter_to_gallon", "read", "pure unit conversion"],
    ["lockDoors", "mutate", "locks or unlocks doors (doorStatus, remainingUnlockedDoors)"],
    ["pressBrakePedal", "mutate", "sets brakePedalStatus to pressed"],
    ["releaseBrakePedal", "mutate", "sets brakePedalStatus to released"],
    ["setCruiseControl", "mutate", "sets cruiseStatus and distanceToNextVehicle"],
    ["setHeadlights", "mutate", "sets headLightStatus"],
    ["set_navigation", "mutate", "sets destination"],
    ["startEngine", "mutate", "starts or stops the engine (engine_state)"],
  ],
};

/** Every labelled function, class by class in the order above, names sorted within a class. */
export const catalog: readonly CatalogEntry[] = (Object.keys(rows) as ApiClass[]).flatMap((apiClass) =>
  rows[apiClass].map(([name, kind, reason, onlyIn]) =>
    onlyIn === undefined ? { name, apiClass, kind, reason } : { name, apiClass, kind, reason, onlyIn },
  ),
);

const byName = new Map(catalog.map((e) => [e.name, e]));

/** The functions a BFCL version's API classes have (the catalog spans every version). */
export function catalogOf(version: BfclVersion): readonly CatalogEntry[] {
  return catalog.filter((e) => e.onlyIn === undefined || e.onlyIn === version);
}

/** The catalog entry of a function name, or undefined for a name outside the eight classes. */
export function catalogEntry(name: string): CatalogEntry | undefined {
  return byName.get(name);
}

/** The label of a function name, or undefined when the name is unknown (callers report it). */
export function kindOf(name: string): FunctionKind | undefined {
  return byName.get(name)?.kind;
}
