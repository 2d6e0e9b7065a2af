import { describe, expect, it } from "vitest";
import { splitSentences } from "./sentences.js";

const texts = (text: string) => splitSentences(text).map((s) => s.text);

describe("splitSentences", () => {
  it("splits English sentences and keeps decimals and abbreviations whole", () => {
    expect(
      texts("The fare is 3.5 euros, e.g. on weekdays. Dr. Vale agreed! Is it cheap? Yes."),
    ).toEqual([
      "The fare is 3.5 euros, e.g. on weekdays.",
      "Dr. Vale agreed!",
      "Is it cheap?",
      "Yes.",
    ]);
  });

  it("reads No. as number only before a digit", () => {
    expect(texts("Take bus No. 5 to the quay. No. The tram stopped in 1971.")).toEqual([
      "Take bus No. 5 to the quay.",
      "No.",
      "The tram stopped in 1971.",
    ]);
  });

  it("keeps initials, domains and list numbers inside the sentence", () => {
    expect(texts("J. Smith wrote to lanting.gov today. It replied.")).toEqual([
      "J. Smith wrote to lanting.gov today.",
      "It replied.",
    ]);
    expect(texts("1. First step\n2. Second step")).toEqual(["1. First step", "2. Second step"]);
  });

  it("splits Chinese at 。！？； and keeps markers with their sentence", () => {
    const sentences = splitSentences(
      "澜汀始建于1784年【1】。洪水发生在2016年[2][3]！人口多少？约120万；",
    );
    expect(sentences.map((s) => s.text)).toEqual([
      "澜汀始建于1784年【1】。",
      "洪水发生在2016年[2][3]！",
      "人口多少？",
      "约120万；",
    ]);
    expect(sentences[1]?.markers.map((m) => m.refs[0])).toEqual(["2", "3"]);
  });

  it("attaches markers written after the full stop to the sentence before", () => {
    const sentences = splitSentences(
      "The bridge opened in 1962. [1] The tram followed.[2][3] Next",
    );
    expect(sentences.map((s) => s.text)).toEqual([
      "The bridge opened in 1962. [1]",
      "The tram followed.[2][3]",
      "Next",
    ]);
    expect(sentences.map((s) => s.markers.length)).toEqual([1, 2, 0]);
  });

  it("splits at line breaks and ignores terminators inside markers", () => {
    expect(texts("Heading\nBody text [doc.v2#1] continues. End")).toEqual([
      "Heading",
      "Body text [doc.v2#1] continues.",
      "End",
    ]);
  });

  it("reports offsets into the text", () => {
    const text = "  One. Two.  ";
    for (const sentence of splitSentences(text)) {
      expect(text.slice(sentence.start, sentence.end)).toBe(sentence.text);
    }
  });

  it("returns nothing for blank text", () => {
    expect(splitSentences("  \n ")).toEqual([]);
  });
});
