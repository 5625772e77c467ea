import { describe, expect, it } from "vitest";
import { PyDict } from "../../python/containers.js";
import { describeVectorReplay, runCall, syntheticFiller } from "../../testing/class-vectors.js";
import { newTravelApi } from "./travel-api.js";
import { PythonProcess } from "./process.js";

describeVectorReplay({
  className: "TravelAPI",
  vectors: "travel-api",
  make: (p, today) => newTravelApi(p, today),
  gtCases: 200,
  gtExample: "multi_turn_base_0's cancel_booking('3426812')",
  inlineCovers: "the error paths, wrong-typed arguments and long_context filler",
  minInlineCalls: 100,
  modelCases: 30,
  modelStored: 590,
  modelExample: ["2025-11-12-harmony-fixes", "openai_gpt-oss-120b", "multi_turn_base_150"],
});

describeVectorReplay({
  className: "TravelAPI",
  vectors: "travel-api",
  version: "v3",
  make: (p, today) => newTravelApi(p, today),
  gtCases: 200,
  gtExample: "multi_turn_base_150",
  inlineCovers: "the error paths and v3's token use on a wrong access token",
  minInlineCalls: 100,
  modelCases: 15,
  modelStored: 150,
  modelExample: ["", "Salesforce_Llama-xLAM-2-8b-fc-r", "multi_turn_base_150"],
});

describe("TravelAPI: behaviours checked by hand", () => {
  it("draws tokens, cards and booking ids from Random(141053) in BFCL's order", () => {
    const t = newTravelApi(undefined, () => [2025, 11, 12]);
    t.loadScenario(new PyDict(), false);
    expect(
      runCall(
        t,
        "authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read', user_first_name='A', user_last_name='B')",
      ),
    ).toBe('{"expires_in": 2, "access_token": "251675", "token_type": "Bearer", "scope": "read"}');
    expect(
      runCall(
        t,
        "register_credit_card(access_token='251675', card_number='1', expiration_date='1/30', cardholder_name='A B', card_verification_number=1)",
      ),
    ).toBe('{"card_id": "391310425148"}');
    expect(runCall(t, "get_credit_card_balance(access_token='251675', card_id='391310425148')")).toBe('{"card_balance": 58617}');
    const fresh = newTravelApi(undefined, () => [2025, 11, 12]);
    fresh.loadScenario(
      new PyDict([
        ["access_token", "t"],
        ["token_expires_in", 1n],
        ["credit_card_list", new PyDict([["c", new PyDict([["balance", 1000.0]])]])],
      ]),
      false,
    );
    expect(
      runCall(
        fresh,
        "book_flight(access_token='t', card_id='c', travel_date='2024-11-15', travel_from='SFO', travel_to='LAX', travel_class='economy')",
      ),
    ).toBe('{"booking_id": "3426812", "transaction_id": "45451592", "booking_status": true, "booking_history": {}}');
  });
  it("shares long_context extension cards between instances of one process, as BFCL's module-level dicts do", () => {
    // Python (BFCL's TravelAPI with the synthetic filler swapped in): two long_context instances, booking
    // SFO->LAX economy (400.0 on an even-digit date) with card 4000111122223333 (2500.0) on the first
    // leaves card_balance 2100.0 on the second.
    const process = new PythonProcess();
    const config = () =>
      new PyDict([
        ["access_token", "t"],
        ["token_expires_in", 1n],
      ]);
    const a = newTravelApi(process, () => [2025, 11, 12]);
    const b = newTravelApi(process, () => [2025, 11, 12]);
    a.loadScenario(config(), true, syntheticFiller());
    b.loadScenario(config(), true, syntheticFiller());
    expect(
      runCall(
        a,
        "book_flight(access_token='t', card_id='4000111122223333', travel_date='2024-11-15', travel_from='SFO', travel_to='LAX', travel_class='economy')",
      ),
    ).toContain('"booking_status": true');
    expect(runCall(b, "get_credit_card_balance(access_token='t', card_id='4000111122223333')")).toBe('{"card_balance": 2100.0}');
    const other = newTravelApi(new PythonProcess(), () => [2025, 11, 12]);
    other.loadScenario(config(), true, syntheticFiller());
    expect(runCall(other, "get_credit_card_balance(access_token='t', card_id='4000111122223333')")).toBe('{"card_balance": 2500.0}');
  });
  it("takes today's date from the process clock when none is given", () => {
    const process = new PythonProcess();
    process.global("datetime.today", () => () => [2025, 1, 1] as const);
    const t = newTravelApi(process);
    t.loadScenario(
      new PyDict([
        ["user_first_name", "A"],
        ["user_last_name", "B"],
      ]),
      false,
    );
    expect(
      runCall(t, "verify_traveler_information(first_name='A', last_name='B', date_of_birth='2007-01-01', passport_number='US1')"),
    ).toBe('{"verification_status": true}');
    expect(
      runCall(t, "verify_traveler_information(first_name='A', last_name='B', date_of_birth='2007-01-02', passport_number='US1')"),
    ).toBe('{"verification_status": false, "verification_failure": "Traveler must be at least 18 years old."}');
  });
});
