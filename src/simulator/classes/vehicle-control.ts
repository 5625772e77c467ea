/**
 * BFCL's `VehicleControlAPI` (`vehicle_control.py`): engine, doors, brakes, climate, cruise control,
 * navigation and a few converters. More in this folder's README.md.
 */
import { PyDict } from "../../python/containers.js";
import { pyDeepCopy } from "../../python/copy.js";
import { pyTruthy } from "../../python/kinds.js";
import { pyEquals, pyGt, pyLe, pyLt, pyNotEquals } from "../../python/compare.js";
import { pyAdd, pyMod, pyMul, pySub, pyTrueDiv } from "../../python/arithmetic.js";
import { pyFloat, pyInt } from "../../python/convert.js";
import { pyContains, pyIter } from "../../python/iterables.js";
import { PyRandom } from "../../python/random.js";
import type { PyValue } from "../../python/value.js";
import type { ApiInstance, LongContextData, MethodSpec } from "../types.js";
import type { PythonProcess } from "./process.js";
import { dict, dictGet, getItem, joinStr, method, opt, req, setItem } from "./class-support.js";

const RANDOM_SEED = 141053n;
const MAX_FUEL_LEVEL = 50n;
const MIN_FUEL_LEVEL = 0.0;
const MILE_PER_GALLON = 20.0;

/** Zip-code pairs `estimate_distance` knows (either order), in the Python's if/elif order. */
const DISTANCES: readonly (readonly [string, string, number])[] = [
  ["83214", "74532", 750.0],
  ["56108", "62947", 320.0],
  ["71354", "83462", 450.0],
  ["47329", "52013", 290.0],
  ["69238", "51479", 630.0],
  ["94016", "83214", 980.0],
  ["94016", "94704", 600.0],
  ["94704", "08540", 2550.0],
  ["94016", "08540", 1950.0],
  ["62947", "47329", 1053.0],
  ["94016", "62947", 780.0],
  ["74532", "94016", 880.0],
];

const ZIP_BY_CITY: readonly (readonly [string, string])[] = [
  ["Rivermist", "83214"],
  ["Stonebrook", "74532"],
  ["Maplecrest", "56108"],
  ["Silverpine", "62947"],
  ["Shadowridge", "71354"],
  ["Sunset Valley", "83462"],
  ["Oakendale", "47329"],
  ["Willowbend", "52013"],
  ["Crescent Hollow", "69238"],
  ["Autumnville", "51479"],
  ["San Francisco", "94016"],
];

function defaultDoors(): PyDict {
  return dict([
    ["driver", "unlocked"],
    ["passenger", "unlocked"],
    ["rear_left", "unlocked"],
    ["rear_right", "unlocked"],
  ]);
}

class VehicleControlApi implements ApiInstance {
  readonly className = "VehicleControlAPI" as const;
  private random = new PyRandom(RANDOM_SEED);
  private fuelLevel: PyValue = 0.0;
  private batteryVoltage: PyValue = 12.6;
  private engineState: PyValue = "stopped";
  private remainingUnlockedDoors: PyValue = 4n;
  private doorStatus: PyValue = defaultDoors();
  private acTemperature: PyValue = 25.0;
  private fanSpeed: PyValue = 50n;
  private acMode: PyValue = "auto";
  private humidityLevel: PyValue = 50.0;
  private headLightStatus: PyValue = "off";
  private parkingBrakeStatus: PyValue = "released";
  private parkingBrakeForce: PyValue = 0.0;
  private slopeAngle: PyValue = 0.0;
  private brakePedalStatus: PyValue = "released";
  private brakePedalForce: PyValue = 0.0;
  private distanceToNextVehicle: PyValue = 50.0;
  private cruiseStatus: PyValue = "inactive";
  private destination: PyValue = "None";
  private frontLeftTirePressure: PyValue = 32.0;
  private frontRightTirePressure: PyValue = 32.0;
  private rearLeftTirePressure: PyValue = 30.0;
  private rearRightTirePressure: PyValue = 30.0;
  private longContext = false;
  private filler: LongContextData | undefined;
  private loaded = false;
  /** The public methods, built once per class: each body acts on the instance it is called on. */
  private static readonly METHODS: ReadonlyMap<string, MethodSpec> = new Map<string, MethodSpec>([
    ["activateParkingBrake", method([req("mode")], ([m], self: VehicleControlApi) => self.activateParkingBrake(m))],
    [
      "adjustClimateControl",
      method(
        [req("temperature"), opt("unit", "celsius"), opt("fanSpeed", 50n), opt("mode", "auto")],
        ([t, u, f, m], self: VehicleControlApi) => self.adjustClimateControl(t, u, f, m),
      ),
    ],
    ["check_tire_pressure", method([], (_args, self: VehicleControlApi) => self.checkTirePressure())],
    ["displayCarStatus", method([req("option")], ([o], self: VehicleControlApi) => self.displayCarStatus(o))],
    ["display_log", method([req("messages")], ([m]) => dict([["log", m]]))],
    ["estimate_distance", method([req("cityA"), req("cityB")], ([a, b], self: VehicleControlApi) => self.estimateDistance(a, b))],
    [
      "estimate_drive_feasibility_by_mileage",
      method([req("distance")], ([d], self: VehicleControlApi) => dict([["canDrive", !pyLt(pyMul(self.fuelLevel, MILE_PER_GALLON), d)]])),
    ],
    ["fillFuelTank", method([req("fuelAmount")], ([f], self: VehicleControlApi) => self.fillFuelTank(f))],
    ["find_nearest_tire_shop", method([], () => dict([["shopLocation", "456 Oakwood Avenue, Rivermist, 83214"]]))],
    ["gallon_to_liter", method([req("gallon")], ([g]) => dict([["liter", pyMul(g, 3.78541)]]))],
    ["get_current_speed", method([], (_args, self: VehicleControlApi) => dict([["currentSpeed", self.random.uniform(0.0, 120.0)]]))],
    ["get_outside_temperature_from_google", method([], (_args, self: VehicleControlApi) => self.outsideTemperatureFromGoogle())],
    ["get_outside_temperature_from_weather_com", method([], () => dict([["error", 404n]]))],
    ["get_zipcode_based_on_city", method([req("city")], ([c], self: VehicleControlApi) => self.zipcodeOf(c))],
    ["liter_to_gallon", method([req("liter")], ([l]) => dict([["gallon", pyMul(l, 0.264172)]]))],
    ["lockDoors", method([req("unlock"), req("door")], ([u, d], self: VehicleControlApi) => self.lockDoors(u, d))],
    ["pressBrakePedal", method([req("pedalPosition")], ([p], self: VehicleControlApi) => self.pressBrakePedal(p))],
    ["releaseBrakePedal", method([], (_args, self: VehicleControlApi) => self.releaseBrakePedal())],
    [
      "setCruiseControl",
      method([req("speed"), req("activate"), req("distanceToNextVehicle")], ([s, a, d], self: VehicleControlApi) =>
        self.setCruiseControl(s, a, d),
      ),
    ],
    ["setHeadlights", method([req("mode")], ([m], self: VehicleControlApi) => self.setHeadlights(m))],
    ["set_navigation", method([req("destination")], ([d], self: VehicleControlApi) => self.setNavigation(d))],
    ["startEngine", method([req("ignitionMode")], ([m], self: VehicleControlApi) => self.startEngine(m))],
  ]);
  readonly methods: ReadonlyMap<string, MethodSpec> = VehicleControlApi.METHODS;

  constructor(private readonly process: PythonProcess | undefined) {}

  loadScenario(config: PyDict, longContext: boolean, filler?: LongContextData): void {
    const get = (key: string, fallback: PyValue) => dictGet(config, key, fallback);
    this.random = new PyRandom(pyInt(get("random_seed", RANDOM_SEED)));
    this.fuelLevel = get("fuelLevel", 0.0);
    this.batteryVoltage = get("batteryVoltage", 12.6);
    this.engineState = get("engineState", "stopped");
    this.remainingUnlockedDoors = get("remainingUnlockedDoors", 4n);
    this.doorStatus = get("doorStatus", defaultDoors());
    const doors = this.doorStatus;
    const locked = pyIter(doors instanceof PyDict ? doors.keys() : doors).filter((d) => pyEquals(getItem(doors, d), "locked")).length;
    this.remainingUnlockedDoors = 4n - BigInt(locked);
    this.acTemperature = get("acTemperature", 25.0);
    this.fanSpeed = get("fanSpeed", 50n);
    this.acMode = get("acMode", "auto");
    this.humidityLevel = get("humidityLevel", 50.0);
    this.headLightStatus = get("headLightStatus", "off");
    this.parkingBrakeStatus = get("parkingBrakeStatus", "released");
    this.parkingBrakeForce = get("parkingBrakeForce", 0.0);
    this.slopeAngle = get("slopeAngle", 0.0);
    this.brakePedalStatus = get("brakePedalStatus", "released");
    this.brakePedalForce = get("brakePedalForce", 0.0);
    this.distanceToNextVehicle = get("distanceToNextVehicle", 50.0);
    this.cruiseStatus = get("cruiseStatus", "inactive");
    this.destination = get("destination", "None");
    this.frontLeftTirePressure = get("frontLeftTirePressure", 32.0);
    this.frontRightTirePressure = get("frontRightTirePressure", 32.0);
    this.rearLeftTirePressure = get("rearLeftTirePressure", 30.0);
    this.rearRightTirePressure = get("rearRightTirePressure", 30.0);
    this.longContext = longContext;
    this.filler = filler;
    this.loaded = true;
  }

  publicState(): [string, PyValue][] {
    if (!this.loaded) return [];
    return [
      ["fuelLevel", this.fuelLevel],
      ["batteryVoltage", this.batteryVoltage],
      ["engine_state", this.engineState],
      ["remainingUnlockedDoors", this.remainingUnlockedDoors],
      ["doorStatus", this.doorStatus],
      ["acTemperature", this.acTemperature],
      ["fanSpeed", this.fanSpeed],
      ["acMode", this.acMode],
      ["humidityLevel", this.humidityLevel],
      ["headLightStatus", this.headLightStatus],
      ["parkingBrakeStatus", this.parkingBrakeStatus],
      ["brakePedalStatus", this.brakePedalStatus],
      ["distanceToNextVehicle", this.distanceToNextVehicle],
      ["cruiseStatus", this.cruiseStatus],
      ["destination", this.destination],
      ["frontLeftTirePressure", this.frontLeftTirePressure],
      ["frontRightTirePressure", this.frontRightTirePressure],
      ["rearLeftTirePressure", this.rearLeftTirePressure],
      ["rearRightTirePressure", this.rearRightTirePressure],
      ["long_context", this.longContext],
    ];
  }

  private fill(name: string): PyValue {
    const v = this.filler?.get(name);
    if (v === undefined) throw new Error(`long_context filler ${name} is missing`);
    return v;
  }

  private startEngine(mode: PyValue): PyValue {
    if (pyEquals(mode, "STOP")) this.engineState = "stopped";
    if (pyGt(this.remainingUnlockedDoors, 0n)) {
      const doors = this.doorStatus instanceof PyDict ? this.doorStatus.entries() : [];
      const unlocked = doors.filter(([, status]) => pyEquals(status, "unlocked")).map(([door]) => door);
      return dict([
        ["error", "All doors must be locked before starting the engine. Here are the unlocked doors: " + joinStr(", ", unlocked)],
      ]);
    }
    if (pyNotEquals(this.brakePedalStatus, "pressed"))
      return dict([["error", "Brake pedal needs to be pressed when starting the engine."]]);
    if (pyNotEquals(this.brakePedalForce, 1000.0)) return dict([["error", "Must press the brake fully before starting the engine."]]);
    if (pyLt(this.fuelLevel, MIN_FUEL_LEVEL)) return dict([["error", "Fuel tank is empty."]]);
    if (pyEquals(mode, "START")) this.engineState = "running";
    else return dict([["error", "Invalid ignition mode."]]);
    return dict([
      ["engineState", this.engineState],
      ["fuelLevel", this.fuelLevel],
      ["batteryVoltage", this.batteryVoltage],
    ]);
  }

  private fillFuelTank(amount: PyValue): PyValue {
    if (pyLt(amount, 0n)) return dict([["error", "Fuel amount cannot be negative."]]);
    if (pyGt(pyAdd(this.fuelLevel, amount), MAX_FUEL_LEVEL)) return dict([["error", "Cannot fill gas above the tank capacity."]]);
    if (pyLt(pyAdd(this.fuelLevel, amount), MIN_FUEL_LEVEL)) return dict([["error", "Fuel tank is empty. Min fuel level is 0 gallons."]]);
    this.fuelLevel = pyAdd(this.fuelLevel, amount);
    return dict([["fuelLevel", this.fuelLevel]]);
  }

  private lockDoors(unlock: PyValue, door: PyValue): PyValue {
    const target = pyTruthy(unlock) ? "unlocked" : "locked";
    for (const d of pyIter(door)) {
      if (pyEquals(getItem(this.doorStatus, d), target)) continue;
      setItem(this.doorStatus, d, target);
      this.remainingUnlockedDoors = target === "unlocked" ? pyAdd(this.remainingUnlockedDoors, 1n) : pySub(this.remainingUnlockedDoors, 1n);
    }
    return dict([
      ["lockStatus", target],
      ["remainingUnlockedDoors", this.remainingUnlockedDoors],
    ]);
  }

  private adjustClimateControl(temperature: PyValue, unit: PyValue, fanSpeed: PyValue, mode: PyValue): PyValue {
    if (!(pyLe(0n, fanSpeed) && pyLe(fanSpeed, 100n))) return dict([["error", "Fan speed must be between 0 and 100."]]);
    this.acTemperature = temperature;
    if (pyEquals(unit, "fahrenheit")) this.acTemperature = pyTrueDiv(pyMul(pySub(temperature, 32n), 5n), 9n);
    this.fanSpeed = fanSpeed;
    this.acMode = mode;
    return dict([
      ["currentACTemperature", temperature],
      ["climateMode", mode],
      ["humidityLevel", this.humidityLevel],
    ]);
  }

  private outsideTemperatureFromGoogle(): PyValue {
    if (this.longContext) {
      const make = () => {
        const v = this.fill("LONG_WEATHER_EXTENSION");
        if (!(v instanceof PyDict)) throw new Error("long_context filler LONG_WEATHER_EXTENSION is not a dict");
        return pyDeepCopy(v);
      };
      const weather = this.process ? this.process.global("vehicle_control.LONG_WEATHER_EXTENSION", make) : make();
      weather.set("outsideTemperature", this.random.uniform(-10.0, 40.0));
      return weather;
    }
    return dict([["outsideTemperature", this.random.uniform(-10.0, 40.0)]]);
  }

  private setHeadlights(mode: PyValue): PyValue {
    if (!pyContains(["on", "off", "auto"], mode)) return dict([["error", "Invalid headlight mode."]]);
    this.headLightStatus = pyEquals(mode, "on") ? "on" : "off";
    return dict([["headlightStatus", this.headLightStatus]]);
  }

  private displayCarStatus(option: PyValue): PyValue {
    const status = new PyDict();
    if (this.longContext) status.set("metadata", this.fill("CAR_STATUS_METADATA_EXTENSION"));
    const is = (name: string) => pyEquals(option, name);
    if (is("fuel")) status.set("fuelLevel", this.fuelLevel);
    else if (is("battery")) status.set("batteryVoltage", this.batteryVoltage);
    else if (is("doors")) status.set("doorStatus", this.doorStatus);
    else if (is("climate")) {
      status.set("currentACTemperature", this.acTemperature);
      status.set("fanSpeed", this.fanSpeed);
      status.set("climateMode", this.acMode);
      status.set("humidityLevel", this.humidityLevel);
    } else if (is("headlights")) status.set("headlightStatus", this.headLightStatus);
    else if (is("parkingBrake")) {
      status.set("parkingBrakeStatus", this.parkingBrakeStatus);
      status.set("parkingBrakeForce", this.parkingBrakeForce);
      status.set("slopeAngle", this.slopeAngle);
    } else if (is("brakePedal")) {
      status.set("brakePedalStatus", this.brakePedalStatus);
      status.set("brakePedalForce", this.brakePedalForce);
    } else if (is("engine")) status.set("engineState", this.engineState);
    else status.set("error", "Invalid option");
    return status;
  }

  private activateParkingBrake(mode: PyValue): PyValue {
    if (!pyContains(["engage", "release"], mode)) return dict([["error", "Invalid mode"]]);
    const engage = pyEquals(mode, "engage");
    this.parkingBrakeStatus = engage ? "engaged" : "released";
    this.parkingBrakeForce = engage ? 500.0 : 0.0;
    this.slopeAngle = 10.0;
    const fields: [PyValue, PyValue][] = [
      ["parkingBrakeStatus", this.parkingBrakeStatus],
      ["_parkingBrakeForce", this.parkingBrakeForce],
      ["_slopeAngle", 10.0],
    ];
    if (this.longContext) fields.unshift(["parkingBrakeInstruction", this.fill("PARKING_BRAKE_INSTRUCTION")]);
    return dict(fields);
  }

  private pressBrakePedal(position: PyValue): PyValue {
    if (!(pyLe(0n, position) && pyLe(position, 1n))) return dict([["error", "Pedal position must be between 0 and 1."]]);
    if (pyEquals(position, 0n)) {
      this.brakePedalStatus = "released";
      this.brakePedalForce = 0.0;
      return dict([
        ["brakePedalStatus", "released"],
        ["brakePedalForce", 0.0],
      ]);
    }
    const force = pyMul(position, 1000n);
    this.brakePedalStatus = "pressed";
    this.brakePedalForce = force;
    return dict([
      ["brakePedalStatus", "pressed"],
      ["brakePedalForce", pyFloat(force)],
    ]);
  }

  private releaseBrakePedal(): PyValue {
    this.brakePedalStatus = "released";
    this.brakePedalForce = 0.0;
    return dict([
      ["brakePedalStatus", "released"],
      ["brakePedalForce", 0.0],
    ]);
  }

  private setCruiseControl(speedArg: PyValue, activate: PyValue, distanceArg: PyValue): PyValue {
    const distance = pyFloat(distanceArg);
    const speed = pyFloat(speedArg);
    if (pyEquals(this.engineState, "stopped")) return dict([["error", "Start the engine before activating the cruise control."]]);
    if (pyTruthy(activate)) {
      this.distanceToNextVehicle = distance;
      // NaN % 5 is NaN (!= 0) in Python; checked explicitly because python/arithmetic pyMod maps a NaN remainder to 0
      if (speed < 0 || speed > 120 || Number.isNaN(speed) || pyNotEquals(pyMod(speed, 5n), 0n)) return dict([["error", "Invalid speed"]]);
      this.cruiseStatus = "active";
    } else {
      this.cruiseStatus = "inactive";
      this.distanceToNextVehicle = distance;
    }
    return dict([
      ["cruiseStatus", this.cruiseStatus],
      ["currentSpeed", speed],
      ["distanceToNextVehicle", distance],
    ]);
  }

  private estimateDistance(cityA: PyValue, cityB: PyValue): PyValue {
    const hit = DISTANCES.find(([a, b]) => (pyEquals(cityA, a) && pyEquals(cityB, b)) || (pyEquals(cityA, b) && pyEquals(cityB, a)));
    const result = hit ? dict([["distance", hit[2]]]) : dict([["error", "distance not found in database."]]);
    if (this.longContext) result.set("intermediaryCities", this.fill("INTERMEDIARY_CITIES"));
    return result;
  }

  private zipcodeOf(city: PyValue): PyValue {
    const hit = ZIP_BY_CITY.find(([name]) => pyEquals(city, name));
    return dict([["zipcode", hit ? hit[1] : "00000"]]);
  }

  private setNavigation(destination: PyValue): PyValue {
    this.destination = destination;
    return dict([["status", pyAdd("Navigating to ", destination)]]);
  }

  private checkTirePressure(): PyValue {
    const total = pyAdd(
      pyAdd(pyAdd(this.frontLeftTirePressure, this.frontRightTirePressure), this.rearLeftTirePressure),
      this.rearRightTirePressure,
    );
    const mean = pyTrueDiv(total, 4n);
    const healthy = pyLe(30n, mean) && pyLe(mean, 35n);
    return dict([
      ["frontLeftTirePressure", this.frontLeftTirePressure],
      ["frontRightTirePressure", this.frontRightTirePressure],
      ["rearLeftTirePressure", this.rearLeftTirePressure],
      ["rearRightTirePressure", this.rearRightTirePressure],
      ["healthy_tire_pressure", healthy],
      ["car_info", this.longContext ? this.fill("CAR_STATUS_METADATA_EXTENSION") : new PyDict()],
    ]);
  }
}

/** A fresh `VehicleControlAPI()` bound to the process holding the shared long_context weather dict. */
export function newVehicleControlApi(process?: PythonProcess): ApiInstance {
  return new VehicleControlApi(process);
}
