// One loader for gate configuration: a base (defaults or a config file) with a per-answer
// override folded in. Resolved configs are frozen and reused, so identity-keyed caches
// downstream (rule_version) stay valid and the hot path parses nothing twice.

import { createHash } from "node:crypto";
import { canonicalJson } from "../text/index.js";
import { type GateConfig, type GateConfigOverride, GateConfigSchema } from "./schema.js";

/**
 * Version of the rules themselves: bump it whenever a check's semantics change (tokenization,
 * matching, aggregation), so records judged by different code never share a rule_version.
 */
export const RULES_VERSION = "gate-3";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `override` laid over `base`: objects merge key by key, anything else (arrays too) replaces. */
function deepMerge(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override))
    return override === undefined ? base : override;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value !== undefined) merged[key] = deepMerge(base[key], value);
  }
  return merged;
}

/** The defaults, parsed once. */
export const DEFAULT_GATE_CONFIG: GateConfig = deepFreeze(GateConfigSchema.parse({}));

const parsedBases = new WeakMap<object, GateConfig>();
const overridden = new WeakMap<GateConfig, Map<string, GateConfig>>();
/** Per base, distinct overrides remembered; past this the memo starts again (bounded memory). */
const MAX_OVERRIDES_PER_BASE = 256;

function parsedBase(base: GateConfig): GateConfig {
  if (base === DEFAULT_GATE_CONFIG) return base;
  let parsed = parsedBases.get(base);
  if (parsed === undefined) {
    parsed = deepFreeze(GateConfigSchema.parse(base));
    parsedBases.set(base, parsed);
    parsedBases.set(parsed, parsed);
  }
  return parsed;
}

/**
 * The effective configuration: `override` deep-merged over `base`, validated by GateConfigSchema
 * (a ZodError names the offending field). The result is frozen; equal inputs give the same object.
 */
export function resolveGateConfig(base: GateConfig, override?: GateConfigOverride): GateConfig {
  const parsed = parsedBase(base);
  if (override === undefined) return parsed;
  const key = JSON.stringify(override);
  if (key === "{}") return parsed;
  let byOverride = overridden.get(parsed);
  if (byOverride === undefined) {
    byOverride = new Map();
    overridden.set(parsed, byOverride);
  }
  let resolved = byOverride.get(key);
  if (resolved === undefined) {
    resolved = deepFreeze(GateConfigSchema.parse(deepMerge(parsed, override)));
    if (byOverride.size >= MAX_OVERRIDES_PER_BASE) byOverride.clear();
    byOverride.set(key, resolved);
    parsedBases.set(resolved, resolved);
  }
  return resolved;
}

const versions = new WeakMap<GateConfig, string>();

/**
 * rule_version (seed 004 §6.3): RULES_VERSION plus a short hash of the rules version and the
 * effective config, e.g. "gate-1+3f9a0c2b71de". Same rules and config give the same string.
 */
export function ruleVersion(config: GateConfig): string {
  let version = versions.get(config);
  if (version === undefined) {
    const digest = createHash("sha256")
      .update(canonicalJson({ rules: RULES_VERSION, config }))
      .digest("hex");
    version = `${RULES_VERSION}+${digest.slice(0, 12)}`;
    versions.set(config, version);
  }
  return version;
}
