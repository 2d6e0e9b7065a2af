import { fileURLToPath } from "node:url";

// Relative to dist/cli/, so the path is the same from the bundle (dist/cli/ragjudge.js).
const example = (path: string) => fileURLToPath(new URL(`../../examples/${path}`, import.meta.url));

/** The bundled corpus (a made-up city, in English and Chinese) and its question set. */
export const EXAMPLE_CORPUS = example("corpus");
export const EXAMPLE_QUESTIONS = example("eval/lanting-questions.jsonl");
/** The bundled example answers for the gate alone; see examples/gate/README.md. */
export const EXAMPLE_ANSWERS = example("gate/answers.jsonl");
