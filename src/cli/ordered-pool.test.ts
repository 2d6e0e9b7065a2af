import { expect, it } from "vitest";
import { mapOrdered } from "./ordered-pool.js";

async function* numbers(n: number) {
  for (let i = 0; i < n; i++) yield i;
}

it("keeps input order and never runs more than the limit at once", async () => {
  let running = 0;
  let peak = 0;
  const out: number[] = [];
  for await (const value of mapOrdered(numbers(20), 4, async (i) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setTimeout(resolve, (20 - i) % 5));
    running--;
    return i * 10;
  })) {
    out.push(value);
  }
  expect(out).toEqual(Array.from({ length: 20 }, (_, i) => i * 10));
  expect(peak).toBeLessThanOrEqual(4);
  expect(peak).toBeGreaterThan(1);
});
