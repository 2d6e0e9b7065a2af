import { setFlagsFromString } from "node:v8";

/**
 * How much V8's old generation may grow past what survived the last full GC, in percent. V8's
 * default lets it reach about 4x: an evaluation worker keeps about 30 MB live but promotes much
 * short-lived garbage (16 items in flight survive young collections), so its heap reached 180 MB
 * and, with embedded PGlite's 140 MB, peak RSS passed 400 MB. At 50% the heap stays under 100 MB;
 * the extra full GCs cost no measurable throughput (docs/deploy.md).
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/**
 * The heap growing percent this process should run with, from RAGJUDGE_HEAP_GROWING_PERCENT (default
 * DEFAULT_HEAP_GROWING_PERCENT); null when V8's setting is left alone: for 0, or when
 * `--heap-growing-percent` was given to node itself (it wins).
 */
export function heapGrowingPercent(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): number | null {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return null;
  const raw = env.RAGJUDGE_HEAP_GROWING_PERCENT?.trim() || String(DEFAULT_HEAP_GROWING_PERCENT);
  if (!/^\d+$/.test(raw) || Number(raw) > 1000) {
    throw new Error(
      `RAGJUDGE_HEAP_GROWING_PERCENT must be an integer from 0 to 1000 (0: V8's default), got "${raw}"`,
    );
  }
  const percent = Number(raw);
  return percent === 0 ? null : percent;
}

/** Sets V8's heap growing factor for this process (heapGrowingPercent); returns the value set. */
export function tuneHeapGrowth(): number | null {
  const percent = heapGrowingPercent();
  if (percent !== null) setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
