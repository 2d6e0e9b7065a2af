import { setFlagsFromString } from "node:v8";

/**
 * Embedded PostgreSQL (PGlite) is a large WebAssembly module. V8 compiles it with its baseline
 * compiler (Liftoff) and then recompiles the functions that run hot with its optimizing one
 * (TurboFan) on background threads; opening a database makes hundreds of functions hot, so every
 * process paid ~0.55 s of CPU for code it mostly ran once. Liftoff alone, measured on Node 20 and
 * 24 (docs/deploy.md): `ragjudge gate` on an existing home 1.38 -> 0.83 s of CPU (0.94 -> 0.71 s
 * wall), creating a database 4.3 -> 3.1 s, a 2,000-question `ragjudge eval` as fast (20 s) with
 * peak RSS 295-301 MB against 342. A process that serves for hours pays the compile once and
 * keeps the faster code: an evaluation worker at 0 ms latency did 208 questions/s against 200.
 */
export const LIFTOFF_ONLY = "--liftoff-only";

/** A WebAssembly tiering flag of node's own (`--liftoff-only`, `--no-wasm-tier-up`, ...). */
function isTieringFlag(arg: string): boolean {
  return /^--(no-)?(liftoff|wasm[-_]tier|wasm[-_]dynamic[-_]tiering)/.test(arg);
}

/**
 * Whether this process keeps PGlite's WebAssembly on Liftoff: RAGJUDGE_WASM_TIER_UP=1 says no and
 * 0 says yes; unset, yes unless the process is `longLived` (a server or worker). A WebAssembly
 * tiering flag given to node itself wins over both (no).
 */
export function liftoffOnly(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
  longLived = false,
): boolean {
  if (execArgv.some(isTieringFlag)) return false;
  const raw = env.RAGJUDGE_WASM_TIER_UP?.trim() ?? "";
  if (raw !== "" && raw !== "0" && raw !== "1") {
    throw new Error(
      `RAGJUDGE_WASM_TIER_UP must be 0 or 1 (1: V8's optimizing tier too), got "${raw}"`,
    );
  }
  return raw === "" ? !longLived : raw === "0";
}

/**
 * The node arguments for a short-lived child process that opens PGlite: this process's own
 * tiering flags when node was given some (a child does not inherit them), else liftoffOnly()'s.
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
export function keepWasmOnLiftoff(options: { longLived?: boolean } = {}): boolean {
  const on = liftoffOnly(process.env, process.execArgv, options.longLived);
  if (on) setFlagsFromString(LIFTOFF_ONLY);
  return on;
}
