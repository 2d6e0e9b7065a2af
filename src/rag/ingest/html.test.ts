import { expect, it } from "vitest";
import { parseHtml } from "./html.js";

it("ends what is left open with the document, and a heading at the next heading", () => {
  const parsed = parseHtml(
    "<title>Tides</title><h1>Old Quay<h2>Times</h2><p>High at 06:10<p>Low at 12:25",
  );
  expect(parsed.title).toBe("Tides");
  expect(parsed.blocks).toEqual([
    { text: "Old Quay", section: "Old Quay" },
    { text: "Times", section: "Old Quay > Times" },
    { text: "High at 06:10", section: "Old Quay > Times" },
    { text: "Low at 12:25", section: "Old Quay > Times" },
  ]);
});

it("reads entities in text and attributes, `</br>` as a break and `<div/>` as a div", () => {
  const parsed = parseHtml(
    '<html lang="zh"><meta name="Description" content="Tides &amp; times"><p>a &lt; b</br>c<div/>d',
  );
  expect(parsed.metadata).toEqual({ lang: "zh", description: "Tides & times" });
  expect(parsed.blocks.map((block) => block.text)).toEqual(["a < b", "c", "d"]);
});

it("keeps a long run of spaces inside <pre> and trims the end", () => {
  const parsed = parseHtml(`<pre>\n\na${" ".repeat(200_000)}b${" ".repeat(200_000)}</pre>`);
  expect(parsed.blocks).toEqual([{ text: `a${" ".repeat(200_000)}b` }]);
});

// htmlparser2's Parser shifted an array of the open elements at every tag: 200,000 nested <div>
// took 24 s, 100,000 `<div><b>` 336 s. Each takes ~0.2 s here. CPU time, not wall time: a loaded
// machine delays the parse without adding much to the CPU it spends.
it.each([
  ["nested <div>", `${"<div>".repeat(200_000)}deep${"</div>".repeat(200_000)}`],
  ["unclosed <div>", `${"<div>".repeat(200_000)}deep`],
  ["misnested <div><b>", `${"<div><b>".repeat(100_000)}deep${"</div>".repeat(100_000)}`],
  ["nested <span><p>", `${"<span><p>".repeat(200_000)}deep`],
  ["nested <table><tr><td>", `${"<table><tr><td>".repeat(100_000)}deep`],
])("reads 200,000 levels of %s in under 3 s of CPU", (_name, html) => {
  const before = process.cpuUsage();
  const parsed = parseHtml(html);
  const { user, system } = process.cpuUsage(before);
  expect((user + system) / 1000).toBeLessThan(3_000);
  expect(parsed.blocks).toEqual([{ text: "deep" }]);
});
