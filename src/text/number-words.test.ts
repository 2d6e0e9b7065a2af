import { describe, expect, it } from "vitest";
import { chineseNumberValue, englishNumberValue, extractNumberWords } from "./number-words.js";

describe("englishNumberValue", () => {
  it("reads cardinals with tens, hyphens, 'and' and scales", () => {
    expect(englishNumberValue("fourteen")).toBe(14);
    expect(englishNumberValue("twenty-one")).toBe(21);
    expect(englishNumberValue("one hundred and five")).toBe(105);
    expect(englishNumberValue("eighteen thousand four hundred")).toBe(18_400);
    expect(englishNumberValue("two hundred thousand")).toBe(200_000);
    expect(englishNumberValue("million")).toBe(1_000_000);
    expect(englishNumberValue("several")).toBeUndefined();
  });
});

describe("chineseNumberValue", () => {
  it("reads digits, 十/百/千 and 万/亿 sections", () => {
    expect(chineseNumberValue("四十二")).toBe(42);
    expect(chineseNumberValue("十")).toBe(10);
    expect(chineseNumberValue("十八")).toBe(18);
    expect(chineseNumberValue("一万两千")).toBe(12_000);
    expect(chineseNumberValue("一千三百万")).toBe(13_000_000);
    expect(chineseNumberValue("一亿两千万")).toBe(120_000_000);
    expect(chineseNumberValue("二〇〇九")).toBe(9);
  });
});

describe("extractNumberWords", () => {
  it("finds number words with their offsets", () => {
    expect(extractNumberWords("It has fourteen stations and twenty-one stops.")).toEqual([
      { raw: "fourteen", value: "14", index: 7, end: 15 },
      { raw: "twenty-one", value: "21", index: 29, end: 39 },
    ]);
    expect(extractNumberWords("共有一万两千人撤离，四十二支队伍").map((m) => m.value)).toEqual([
      "12000",
      "42",
    ]);
  });

  it("reads a lone Chinese digit only before a measure word, not inside ordinary words", () => {
    expect(extractNumberWords("五个。").map((m) => m.value)).toEqual(["5"]);
    expect(extractNumberWords("一般来说，这一点很重要")).toEqual([]);
  });
});
