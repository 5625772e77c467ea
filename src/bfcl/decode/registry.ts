/**
 * BFCL's model registry as far as decoding goes: which result folder belongs to which registry key, handler and
 * mode, and so which decoder BFCL applies. One generated table per BFCL version (tools/gen-model-registry.py);
 * this module types and indexes them. More in this folder's README.md.
 */
import type { BfclVersion } from "../categories.js";
import type { DecoderName } from "./decoders.js";
import { registryTable as registryTableV4 } from "./registry-table.js";
import { registryTable as registryTableV3 } from "./registry-table-v3.js";

/** One registry key of BFCL's `MODEL_CONFIG_MAPPING`. */
export interface RegistryModel {
  /** The key `bfcl generate --model` takes. */
  readonly key: string;
  /** The result folder BFCL writes for it: the key with `/` replaced by `_`. */
  readonly folder: string;
  /** The handler class. */
  readonly handler: string;
  /** `is_fc_model` as the handler ends up with it (some handlers' `__init__` force it). */
  readonly isFcModel: boolean;
  /** The decoder of the handler's `decode_execute` in that mode, as that revision's code decodes. */
  readonly decoder: DecoderName;
}

/** What decides a handler's decoding. */
export interface RegistryHandler {
  /** The class in the handler's MRO that defines `decode_execute`. */
  readonly owner: string;
  /** True when that method branches on `self.is_fc_model`. */
  readonly dependsOnMode: boolean;
  /** The constant the handler's `__init__` assigns to `is_fc_model`, if any. */
  readonly forcedIsFcModel: boolean | null;
}

/** The generated table's shape. */
export interface RegistryTable {
  readonly handlers: Readonly<Record<string, RegistryHandler>>;
  readonly models: readonly RegistryModel[];
}

/** Each version's table (a Record, so a new version cannot be left without one). */
export const registryTables: Readonly<Record<BfclVersion, RegistryTable>> = { v3: registryTableV3, v4: registryTableV4 };

const byFolder = new Map<BfclVersion, Map<string, RegistryModel>>(
  (Object.keys(registryTables) as BfclVersion[]).map((v) => [v, new Map(registryTables[v].models.map((m) => [m.folder, m]))]),
);

/** Every registry key of the current release (v4), in BFCL's order. */
export const registryModels: readonly RegistryModel[] = registryTableV4.models;

/** The current release's (v4) handler facts, by class name. */
export const registryHandlers: Readonly<Record<string, RegistryHandler>> = registryTableV4.handlers;

/**
 * The registry entry of a BFCL version whose result folder is `folder` (a model folder's
 * name; `org/model` read as BFCL's `org_model`), if that version's BFCL knows it. The
 * version defaults to the current release, v4.
 */
export function registryEntryOfFolder(folder: string, version: BfclVersion = "v4"): RegistryModel | undefined {
  return byFolder.get(version)!.get(folder.replaceAll("/", "_"));
}
