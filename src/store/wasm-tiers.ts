import { setFlagsFromString } from "node:v8";

/**
 * Embedded PostgreSQL (PGlite) is a large WebAssembly module. V8 compiles it with its baseline
 * compiler (Liftoff) and then recompiles the functions that run hot with its optimizing one
 * (TurboFan) on background threads; opening a database makes hundreds of functions hot, so every
 * process paid ~0.55 s of CPU for code it mostly used once. Liftoff alone, measured on Node 20 and
 * 24 (docs/deploy.md): `ragjudge gate` on an existing home 1.45 -> 0.87 s of CPU (0.98 -> 0.73 s
 * wall), creating a database 4.3 -> 3.1 s; a 2,000-question embedded run 203 questions/s against
 * 208 at 0 ms latency, the same ratio to ideal at 300-800 ms, and peak RSS 295 MB against 348.
 */
export const LIFTOFF_ONLY = "--liftoff-only";

/** A WebAssembly tiering flag of node's own (`--liftoff-only`, `--no-wasm-tier-up`, ...). */
function isTieringFlag(arg: string): boolean {
  return /^--(no-)?(liftoff|wasm[-_]tier|wasm[-_]dynamic[-_]tiering)/.test(arg);
}

/**
 * Whether this process keeps PGlite's WebAssembly on Liftoff: yes unless RAGJUDGE_WASM_TIER_UP is
 * 1, or node was given a WebAssembly tiering flag itself (it wins).
 */
export function liftoffOnly(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): boolean {
  if (execArgv.some(isTieringFlag)) return false;
  const raw = env.RAGJUDGE_WASM_TIER_UP?.trim() || "0";
  if (raw !== "0" && raw !== "1") {
    throw new Error(
      `RAGJUDGE_WASM_TIER_UP must be 0 or 1 (1: V8's optimizing tier too), got "${raw}"`,
    );
  }
  return raw === "0";
}

/**
 * The node arguments for a child process that opens PGlite: this process's own tiering flags when
 * node was given some (a child does not inherit them), else liftoffOnly()'s decision.
 */
export function wasmTierArgs(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): string[] {
  const given = execArgv.filter(isTieringFlag);
  if (given.length > 0) return given;
  return liftoffOnly(env, execArgv) ? [LIFTOFF_ONLY] : [];
}

/**
 * Keeps this process's WebAssembly on Liftoff when liftoffOnly() says so; call it before the first
 * PGlite opens (V8 reads the flag when it compiles a module). Returns whether it did.
 */
export function keepWasmOnLiftoff(): boolean {
  const on = liftoffOnly();
  if (on) setFlagsFromString(LIFTOFF_ONLY);
  return on;
}
