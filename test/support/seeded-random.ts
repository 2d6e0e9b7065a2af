// Tests and benchmarks draw from the arena's own PRNG (mulberry32): one copy of it, so randomized
// tests reproduce their failures and benchmarks measure the same input on every run.
export { seededRandom } from "../../src/evals/arena/prng.js";
