import { describe, expect, it } from "vitest";
import { splitCitations } from "./citations";

describe("splitCitations", () => {
  it("turns known bracketed ids into citations and leaves other brackets as text", () => {
    const known = new Set(["doc_1#0", "doc_2#1"]);
    expect(
      splitCitations("Opened in 2009 [doc_1#0]. See [note] and [doc_1#0, doc_2#1]", known),
    ).toEqual([
      { text: "Opened in 2009 " },
      { citation: "doc_1#0" },
      { text: ". See [note] and " },
      { citation: "doc_1#0" },
      { citation: "doc_2#1" },
    ]);
  });

  it("keeps an answer without markers whole", () => {
    expect(splitCitations("No sources.", new Set())).toEqual([{ text: "No sources." }]);
  });
});
