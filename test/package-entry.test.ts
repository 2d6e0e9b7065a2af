// The package as code imports it: `ragjudge` and `ragjudge/gate` resolve through package.json's
// `exports` to the build (Node resolves a package's own name from inside it), with types beside.

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url).pathname;

/** Runs an ES module script with the project as its working directory; returns its stdout. */
function runModule(source: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", source], {
    cwd: ROOT,
    encoding: "utf8",
  });
}

const GUARD_SCRIPT = (entry: string) => `
import { guard, EvaluatorInputSchema } from "${entry}";
const input = EvaluatorInputSchema.parse({
  conversation_id: "c", message_id: "m", retrieval_record: { id: "r" },
  retrieval_hits: [{ node_id: "n1", content: "The bridge was built in 1870 by the river guild." }],
  generation_record: { id: "g" },
  generation_output: { answer: "The bridge was built in 1870 [n1]. It cost 40 million yuan [n1]." },
});
const result = guard(input);
console.log(JSON.stringify({ decision: result.decision, answer: result.answer }));
`;

it("imports the gate's guardrail from the core entry and from ragjudge/gate", () => {
  for (const entry of ["ragjudge", "ragjudge/gate"]) {
    expect(JSON.parse(runModule(GUARD_SCRIPT(entry))), entry).toEqual({
      decision: "repair",
      answer: "The bridge was built in 1870 [n1].",
    });
  }
});

it("exports the judges, the loops and evaluation runs from the core entry, with types", () => {
  const names = JSON.parse(
    runModule(`import * as r from "ragjudge"; console.log(JSON.stringify(Object.keys(r)));`),
  ) as string[];
  for (const name of [
    "evaluateGate",
    "guard",
    "offlineJudge",
    "review",
    "ask",
    "startEvaluation",
    "openStore",
  ]) {
    expect(names, name).toContain(name);
  }
  expect(existsSync(`${ROOT}dist/index.d.ts`)).toBe(true);
  expect(existsSync(`${ROOT}dist/gate/index.d.ts`)).toBe(true);
});

it("keeps the build's inner files out of reach (only the declared entries are exported)", () => {
  expect(() => runModule(`await import("ragjudge/dist/store/index.js");`)).toThrow(
    /ERR_PACKAGE_PATH_NOT_EXPORTED/,
  );
});
