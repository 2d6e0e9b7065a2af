import { fileURLToPath } from "node:url";
import { gateCommand } from "./gate.js";

/** The bundled example answers; see examples/gate/README.md for what each one shows. */
export const EXAMPLE_ANSWERS = fileURLToPath(
  new URL("../../../examples/gate/answers.jsonl", import.meta.url),
);

/**
 * The main job until evaluation runs exist: gate the bundled example into the embedded store
 * and print the verdicts. Failing answers are expected here, so the exit code is 0.
 */
export async function startCommand(): Promise<number> {
  process.stdout.write(`Gating the bundled example answers (${EXAMPLE_ANSWERS})\n\n`);
  const code = await gateCommand([EXAMPLE_ANSWERS]);
  process.stdout.write(
    "\nEvery verdict is stored with its checks, scores and config for audit and replay.\n" +
      "See them over HTTP with `npx ragjudge serve`, then GET /api/v1/evaluation-records.\n" +
      "Gate your own answers with `npx ragjudge gate FILE.jsonl` (docs/gate.md).\n",
  );
  return code === 2 ? 2 : 0;
}
