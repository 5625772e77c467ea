/**
 * BFCL's model registry as far as decoding goes: which result folder belongs to which
 * registry key, handler and mode, and so which decoder BFCL applies to its steps. The
 * table itself (`registry-table.ts`) is generated from BFCL's `constants/model_config.py`
 * by tools/gen-model-registry.py; this module types and indexes it.
 */
import type { DecoderName } from "./decoders.js";
import { registryTable } from "./registry-table.js";

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
  /** The decoder of the handler's `decode_execute` in that mode. */
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

const byFolder = new Map<string, RegistryModel>(registryTable.models.map((m) => [m.folder, m]));

/** Every registry key, in BFCL's order. */
export const registryModels: readonly RegistryModel[] = registryTable.models;

/** The handler facts, by class name. */
export const registryHandlers: Readonly<Record<string, RegistryHandler>> = registryTable.handlers;

/** The registry entry whose result folder is `folder` (a model folder's name; `org/model` read as BFCL's `org_model`), if BFCL knows it. */
export function registryEntryOfFolder(folder: string): RegistryModel | undefined {
  return byFolder.get(folder.replaceAll("/", "_"));
}
