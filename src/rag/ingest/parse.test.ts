import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseHtml } from "./html.js";
import { parseJsonlDocuments } from "./jsonl.js";
import { parseMarkdown } from "./markdown.js";
import { parseBytes, titleFromPath } from "./parse.js";

async function* lines(text: string) {
  yield text;
}

describe("parseMarkdown", () => {
  it("takes sections from headings, keeps code whole and drops link targets", () => {
    const parsed = parseMarkdown(
      [
        "---",
        "title: 'Front matter title'",
        "author: Wei",
        "---",
        "Intro before any heading.",
        "",
        "# Lanting",
        "",
        "See [the map](https://example.org/map) and ![a tram](tram.png).",
        "Second line of the same paragraph.",
        "",
        "## Trams",
        "",
        "```",
        "# not a heading",
        "",
        "code after a blank line",
        "```",
        "",
        "Ferries",
        "-------",
        "Boats. <!-- hidden -->",
      ].join("\n"),
    );
    expect(parsed.title).toBe("Front matter title");
    expect(parsed.metadata).toEqual({ title: "Front matter title", author: "Wei" });
    expect(parsed.blocks).toEqual([
      { text: "Intro before any heading." },
      { text: "Lanting", section: "Lanting" },
      {
        text: "See the map and a tram.\nSecond line of the same paragraph.",
        section: "Lanting",
      },
      { text: "Trams", section: "Lanting > Trams" },
      {
        text: "```\n# not a heading\n\ncode after a blank line\n```",
        section: "Lanting > Trams",
      },
      { text: "Ferries", section: "Lanting > Ferries" },
      { text: "Boats.", section: "Lanting > Ferries" },
    ]);
  });

  it("titles a document by its first level-1 heading", () => {
    const corpus = readFileSync(
      new URL("../../../examples/corpus/lanting-flood-2016.md", import.meta.url),
      "utf8",
    );
    const parsed = parseMarkdown(corpus);
    expect(parsed.title).toBe("2016年澜汀特大洪水");
    expect(parsed.blocks.length).toBe(5);
    expect(parsed.blocks.every((block) => block.section === "2016年澜汀特大洪水")).toBe(true);
  });
});

describe("parseHtml", () => {
  it("reads the body text by blocks and sections, without scripts, styles or navigation", () => {
    const html = readFileSync(
      new URL("../../../examples/corpus/extra.html", import.meta.url),
      "utf8",
    );
    const parsed = parseHtml(html);
    expect(parsed.title).toBe("Visiting the Saltworks Arts District");
    expect(parsed.metadata).toEqual({
      lang: "en",
      description: "A visitor's guide to the Saltworks Arts District in Lanting.",
    });
    const text = parsed.blocks.map((block) => block.text).join("\n");
    expect(text).not.toMatch(/analytics|font-family|Home/);
    expect(text).toContain("on Saturdays and Sundays & on public holidays.");
    expect(parsed.blocks.find((block) => block.text.includes("Bus route 7"))?.section).toBe(
      "Visiting the Saltworks Arts District > Getting there",
    );
    expect(parsed.blocks.find((block) => block.text.startsWith("Guided tours"))).toEqual({
      text: "Guided tours of the salt pans: Saturdays at 11:00.",
      section: "Visiting the Saltworks Arts District > Opening hours",
    });
    expect(parsed.blocks.at(-1)?.text).toBe("Lanting Tourism Office");
  });

  it("keeps preformatted text and falls back to the first h1 for a title", () => {
    const parsed = parseHtml("<h1>Tides</h1><pre>high  06:10\nlow   12:25</pre><p>a<br>b</p>");
    expect(parsed.title).toBe("Tides");
    expect(parsed.blocks.map((block) => block.text)).toEqual([
      "Tides",
      "high  06:10\nlow   12:25",
      "a",
      "b",
    ]);
  });
});

describe("parseJsonlDocuments", () => {
  it("makes one document per valid line and reports bad lines by number and field", async () => {
    const input = [
      JSON.stringify({ id: "a", title: "Alpha", text: "First.\n\nSecond.", metadata: { k: 1 } }),
      JSON.stringify({ text: "No id here." }),
      "{not json",
      JSON.stringify({ id: "b", text: "   " }),
      JSON.stringify({ id: "a", text: "Again." }),
      JSON.stringify({ id: 7, text: "Numeric id." }),
    ].join("\n");
    const out = [];
    for await (const entry of parseJsonlDocuments(lines(input), "data/faq.jsonl", "faq"))
      out.push(entry);
    expect(out[0]).toEqual({
      line: 1,
      ok: true,
      document: {
        source: "data/faq.jsonl#a",
        // The line's own id, kept so questions can name it in relevant_ids.
        external_id: "a",
        kind: "jsonl",
        title: "Alpha",
        blocks: [{ text: "First." }, { text: "Second." }],
        metadata: { k: 1 },
      },
    });
    expect(out[1]).toMatchObject({
      ok: true,
      document: { source: "data/faq.jsonl#L2", title: "faq line 2" },
    });
    expect(out[2]).toMatchObject({
      line: 3,
      ok: false,
      error: expect.stringMatching(/malformed JSON/),
    });
    expect(out[3]).toMatchObject({ line: 4, ok: false, error: "text: must not be blank" });
    expect(out[4]).toMatchObject({ line: 5, ok: false, error: 'id: "a" repeats line 1' });
    expect(out[5]).toMatchObject({
      ok: true,
      document: { source: "data/faq.jsonl#7", title: "7" },
    });
  });
});

describe("parseBytes", () => {
  it("reads plain text as paragraphs titled by the file name", async () => {
    const doc = await parseBytes(
      new TextEncoder().encode("\uFEFFOne line.\r\nSame paragraph.\r\n\r\nTwo."),
      "notes/tides.txt",
      "text",
      titleFromPath("notes/tides.txt"),
    );
    expect(doc).toEqual({
      source: "notes/tides.txt",
      kind: "text",
      title: "tides",
      blocks: [{ text: "One line.\nSame paragraph." }, { text: "Two." }],
      metadata: {},
    });
  });

  it("rejects text that is not UTF-8, naming the source", async () => {
    await expect(
      parseBytes(new Uint8Array([0x66, 0xff, 0x66]), "bad.md", "markdown", "bad"),
    ).rejects.toThrow("bad.md: not valid UTF-8");
  });

  it("rejects text holding a NUL, which PostgreSQL cannot store, naming the source", async () => {
    for (const kind of ["text", "markdown", "html"] as const) {
      await expect(
        parseBytes(new TextEncoder().encode("ab\u0000c"), "bin.txt", kind, "bin"),
      ).rejects.toThrow("bin.txt: contains a NUL character (\\u0000) at character 2");
    }
  });

  it("rejects a file that is not a PDF", async () => {
    await expect(
      parseBytes(new TextEncoder().encode("hello"), "fake.pdf", "pdf", "fake"),
    ).rejects.toThrow(/not a readable PDF/);
  });
});
