import { expect, it } from "vitest";
import { seededRandom } from "../../../test/support/seeded-random.js";
import { cleanInline, parseMarkdown } from "./markdown.js";

/** What cleanInline did with regexes (quadratic on unclosed brackets): the reference on small text. */
function regexCleanInline(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/<(https?:\/\/[^>\s]+)>/g, "$1");
}

it("cleans links, images and autolinks as the regexes did, on random text", () => {
  const random = seededRandom(20261127);
  const pieces = ["[", "]", "(", ")", "![", "<", ">", "http://", "https://", "a", " ", "\n", "x"];
  for (let round = 0; round < 5_000; round++) {
    const length = 1 + Math.floor(random() * 30);
    const text = Array.from(
      { length },
      () => pieces[Math.floor(random() * pieces.length)] as string,
    ).join("");
    expect(cleanInline(text), JSON.stringify(text)).toBe(regexCleanInline(text));
  }
});

it("keeps its examples", () => {
  expect(cleanInline("See [the map](https://x.org/m) and ![a tram](t.png).")).toBe(
    "See the map and a tram.",
  );
  expect(cleanInline("[![badge](b.svg)](https://ci)")).toBe("badge");
  expect(cleanInline("[text][ref] and <https://x.org/a> but not <ftp://x>")).toBe(
    "text and https://x.org/a but not <ftp://x>",
  );
});

// Each line below took the regexes time quadratic in its length: 100 kB of `[` took 17 s, so a
// 1 MB line would take about half an hour; the scanner takes a few milliseconds. The bound is CPU
// time, not wall time: a loaded machine delays the parse without adding much to its CPU.
it.each([
  ["unclosed brackets", "[".repeat(1_000_000)],
  ["unclosed images", "![".repeat(500_000)],
  ["links without a target end", "[a](".repeat(250_000)],
  ["references, each ending the one before", "[a][".repeat(250_000)],
  ["autolinks without an end", "<http://".repeat(125_000)],
  ["unclosed comments", "<!--".repeat(250_000)],
])("reads a 1 MB line of %s in under 2 s of CPU", (_name, line) => {
  const before = process.cpuUsage();
  const parsed = parseMarkdown(line);
  const { user, system } = process.cpuUsage(before);
  expect((user + system) / 1000).toBeLessThan(2_000);
  // Compared by hand: a failing toBe would print a megabyte.
  const text = parsed.blocks.map((block) => block.text).join("");
  expect(text === line || text === cleanInline(line)).toBe(true);
  expect(text.length).toBeGreaterThan(0);
});
