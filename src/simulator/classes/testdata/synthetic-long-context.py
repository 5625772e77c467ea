# Synthetic stand-in for BFCL's func_source_code/long_context.py, written for twinscore's
# tests (made-up values; none of BFCL's filler text). Same constant names and the same
# Python types and shapes as BFCL's module, but a handful of entries each, so the
# long_context branches of the class ports can be tested without a BFCL checkout.
# tools/gen-class-vectors.py swaps these constants into BFCL's own class modules when it
# records the long_context vectors; the TS tests parse this file with
# parseLongContextModule (src/simulator/long-context.ts).
# Layout follows BFCL's module on purpose: `NAME = value` with spaces, except
# LONG_WEATHER_EXTENSION written `NAME=value`; multi-line dicts; triple-quoted strings.
# The `...` closing WATCH_LIST_EXTENSION is deliberate: BFCL's list also holds an
# Ellipsis object, which get_watchlist then returns.
WATCH_LIST_EXTENSION = ['QRVX', 'MOLT', 'ZB', 'KAPR', 'MOLT', 'TEWN', ...]
TRANSACTION_HISTORY_EXTENSION = [{'type': 'deposit', 'amount': 1250.5, 'timestamp': '2024-03-14 09:26:53.589793'}, {'type': 'withdrawal', 'amount': 87.25, 'timestamp': '2023-12-01 17:45:00.000001'}, {'type': 'deposit', 'amount': 3000.0, 'timestamp': '2024-08-30 23:59:59.999999'}]
MA_5_EXTENSION = [101.5, 99.875, 103.0, 98.12, 100.01]
MA_20_EXTENSION = [95.25, 96.5, 97.75, 94.1, 0.3]
TECHNOLOGY_EXTENSION = ['AAPL', 'QRVX', 'NEBU', 'SYNQ']
AUTOMOBILE_EXTENSION = ['TSLA', 'WHLZ', 'GRDX']
ORDER_DETAIL_EXTENSION = {
    "company_overview": """
    {symbol} makes imaginary widgets. Analysts who cover {symbol} describe it as steady.
    """,
    "market_analysis": """
    Demand for {symbol} products rose this quarter; supply of {{spare parts}} did not.""",
    "risks": "{symbol}: currency exposure, one large customer",
}
FILE_CONTENT_EXTENSION = "Synthetic notes appended to files in long_context scenarios.\nSecond line, with a tab\tand a quote ' in it."
POPULATE_FILE_EXTENSION = ['scan_0001.png', 'scan_0002.png', 'notes_a.md', 'notes_b.md', 'budget_2031.xlsx']
CAR_STATUS_METADATA_EXTENSION = "Maker: Examplecar; Model: Testline 3; Year: 2031; Seats: 5; Tyres: 225/45 R17; Notes: synthetic metadata for tests."
LONG_WEATHER_EXTENSION={"-1_day": {"windSpeed": 12.5, "humidity": 70.0, "precipitation": 1.0, "uvIndex": 4, "visibility": 9.5, "airPressure": 1013.0, "dewPoint": 7.0}, "-2_day": {"windSpeed": 3.0, "humidity": 55.0, "precipitation": 0.0, "uvIndex": 8, "visibility": 10.0, "airPressure": 1021.5, "dewPoint": 11.0}, "-3_day": {"windSpeed": 20.25, "humidity": 90.0, "precipitation": 14.0, "uvIndex": 1, "visibility": 4.0, "airPressure": 998.0, "dewPoint": 3.5}}
PARKING_BRAKE_INSTRUCTION = "Synthetic parking brake guide: pull the lever fully, check the dashboard light,\nand release only with the foot brake pressed."
INTERMEDIARY_CITIES = ['Alderport', 'Brindle Falls', 'Cobalt Springs', 'Dunmere', 'Brindle Falls']
CREDIT_CARD_EXTENSION = {
    "4000111122223333": {
        "card_number": "4000111122223333",
        "expiration_date": "09/31",
        "cardholder_name": "Pat Example",
        "card_verification_number": 321,
        "balance": 2500.00
    },
    "4000444455556666": {
        "card_number": "4000444455556666",
        "expiration_date": "01/29",
        "cardholder_name": "Sam Sample",
        "card_verification_number": 7,
        "balance": 120.50
    },
}
BOOKING_RECORD_EXTENSION = {
    "booking_lc_1": {
        "card_id": "4000111122223333",
        "travel_date": "2024-02-29",
        "travel_from": "SFO",
        "travel_to": "ORD",
        "travel_class": "business",
        "travel_cost": 1320.0,
        "transaction_id": "trans_lc_1"
    },
    "booking_lc_2": {
        "card_id": "4000444455556666",
        "travel_date": "2024-07-04",
        "travel_from": "LAX",
        "travel_to": "SFO",
        "travel_class": "economy",
        "travel_cost": 95.5,
        "transaction_id": "trans_lc_2"
    },
}
FILES_TAIL_USED = ['notes_a.md', 'report.txt', 'budget_2031.xlsx']
