import { describe, expect, it } from "vitest";
import {
  canonicalDecimal,
  evidenceNumberValues,
  extractNumbers,
  extractNumbersByGrammar,
  extractNumbersIn,
  statesNumberAsWritten,
} from "./numbers.js";
import { contentTokensIn, type TextMarks } from "./tokenize.js";
import { seededRandom } from "../../test/support/seeded-random.js";

const values = (text: string) => extractNumbers(text).map((m) => m.value);

describe("extractNumbers", () => {
  it("normalizes separators, trailing zeros and percentages", () => {
    expect(values("1,200 riders, 1200 seats, 3.50 km, 3.5 km, 12.5% and 12.5 percent")).toEqual([
      "1200",
      "1200",
      "3.5",
      "3.5",
      "12.5%",
      "12.5%",
    ]);
  });

  it("applies multipliers exactly", () => {
    expect(values("4.2 million TEU, 1.2万人, 120万, 3 billion")).toEqual([
      "4200000",
      "12000",
      "1200000",
      "3000000000",
    ]);
  });

  it("reads dates in ISO, English and Chinese forms", () => {
    expect(values("2021-03-05, 2021/3/5, March 5, 2021, 5 March 2021, March 2021")).toEqual([
      "2021-03-05",
      "2021-03-05",
      "2021-03-05",
      "2021-03-05",
      "2021-03",
    ]);
    expect(values("2016年7月12日，2019年8月，911年，3月5日")).toEqual([
      "2016-07-12",
      "2019-08",
      "911",
      "03-05",
    ]);
  });

  it("ignores citation markers, identifiers and list enumerators", () => {
    expect(values("Built in 1869 [1] and [n12], model A380 v2.\n1. First 7 items")).toEqual([
      "1869",
      "7",
    ]);
  });

  it("reads full-width digits", () => {
    expect(values("人口１２０万")).toEqual(["1200000"]);
  });

  it("treats an impossible date as separate numbers", () => {
    expect(values("2021-13-45")).toEqual(["2021", "13", "45"]);
  });
});

describe("canonicalDecimal", () => {
  it("strips separators and zeros and shifts by an exponent", () => {
    expect(canonicalDecimal("1,200")).toBe("1200");
    expect(canonicalDecimal("007")).toBe("7");
    expect(canonicalDecimal("3", "500")).toBe("3.5");
    expect(canonicalDecimal("1", "25", 1)).toBe("12.5");
    expect(canonicalDecimal("0", "5", 4)).toBe("5000");
  });
});

describe("evidenceNumberValues", () => {
  it("lets a full date support its year and month, and a percentage its number", () => {
    const evidence = evidenceNumberValues("It opened on March 5, 2021, carrying 12.5% of trips.");
    for (const value of ["2021-03-05", "2021-03", "03-05", "2021", "12.5%", "12.5"]) {
      expect(evidence.has(value)).toBe(true);
    }
  });

  it("reads small spelled-out numbers in English and Chinese", () => {
    const evidence = evidenceNumberValues("three bridges, twelve piers, 三座桥，二十五个站");
    for (const value of ["3", "12", "25"]) expect(evidence.has(value)).toBe(true);
  });
});

describe("statesNumberAsWritten", () => {
  const find = (text: string, claim: string) => {
    const [mention] = extractNumbers(claim);
    if (mention === undefined) throw new Error(`no number in ${claim}`);
    return statesNumberAsWritten(text, mention);
  };

  it("finds a number spelled as in the claim", () => {
    expect(find("The port handled 6,643 tonnes.", "6,643 tonnes")).toBe(true);
    expect(find("It rose 22.1% last year.", "22.1%")).toBe(true);
  });

  it("does not take part of a longer number or date for the claim", () => {
    expect(find("It handled 16,643 tonnes.", "6,643")).toBe(false);
    expect(find("On 2021-03-05 it opened.", "03")).toBe(false);
    expect(find("It opened on March 5, 2021.", "5")).toBe(false);
    expect(find("2016年7月12日发生洪水", "12")).toBe(false);
    expect(find("It carried 4.2 million people.", "4.2")).toBe(false);
  });

  it("agrees with the full parse on a sample of claims", () => {
    const evidence =
      "Founded in 1784, the port handled 4.2 million TEU in 2022 (up 3.5%). On March 5, 2021 the " +
      "metro opened 14 stations over 22.6 km; 2016年7月12日 a flood hit 1,200 homes.";
    const full = evidenceNumberValues(evidence);
    for (const claim of [
      "1784",
      "4.2 million",
      "2022",
      "3.5%",
      "14",
      "22.6",
      "1,200",
      "5",
      "12",
      "2016",
    ]) {
      const [mention] = extractNumbers(claim);
      if (mention === undefined) continue;
      if (statesNumberAsWritten(evidence, mention)) expect(full.has(mention.value)).toBe(true);
    }
  });
});

describe("statesNumberAsWritten, randomized", () => {
  it("never finds a value the full parse of the evidence lacks", () => {
    const fragments = [
      "1",
      "12",
      "2021",
      "1,200",
      "3.5",
      "3.50",
      "1.2.3",
      "2021-03-05",
      "2021/3/5",
      "5",
      "%",
    ];
    fragments.push(
      " percent",
      " million",
      " km",
      "万",
      "年",
      "月",
      "日",
      " March",
      "May",
      "st",
      " ",
      ", ",
    );
    fragments.push(". ", "\n", "1. ", "A", "-", "/", ".", ",", "澜汀", "the", " 2019", "12th ");
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const text = (parts: number) =>
      Array.from({ length: parts }, () => fragments[Math.floor(random() * fragments.length)]).join(
        "",
      );
    let found = 0;
    for (let n = 0; n < 3000; n++) {
      const evidence = text(2 + Math.floor(random() * 10));
      const values = evidenceNumberValues(evidence);
      for (const mention of extractNumbers(text(1 + Math.floor(random() * 4)))) {
        if (!statesNumberAsWritten(evidence, mention)) continue;
        found++;
        expect(values.has(mention.value), `${mention.raw} in ${JSON.stringify(evidence)}`).toBe(
          true,
        );
      }
    }
    expect(found).toBeGreaterThan(50);
  });
});

// Pieces that exercise every shortcut of extractNumbers: separators, decimals, percentages,
// multipliers, ordinals, dates in every form, month names, identifiers, list numbers, markers.
const ASCII_PIECES = [
  "1",
  "12",
  "2021",
  "1,200",
  "0,123",
  "1,2345",
  "12,345,678.90",
  "3.5",
  "3.50",
  "0.5",
  "007",
  "1.2.3",
  "2021-03-05",
  "2021/3/5",
  "5",
  "%",
  " percent",
  " per cent",
  " million",
  " km",
  "st",
  "nd",
  " March",
  "May",
  "Mar",
  " Sept",
  "Dec ",
  "thousand",
  "Th",
  "PERCENT",
  " ",
  ", ",
  ". ",
  "\t",
  "1. ",
  "2) ",
  "A",
  "a5",
  "-",
  "/",
  ".",
  ",",
  "(",
  "the",
  " 2019",
  "12th ",
  " 5 June 2020",
  "Jan 3, 1999",
  "tonnes",
  "No. 4",
  "1.",
  "4)",
];
const OTHER_PIECES = ["\n", "[1]", "[n2]", "年", "月", "日", "号", "万", "澜汀", "１２", "【3】"];

function randomText(random: () => number, pieces: readonly string[], parts: number): string {
  let text = "";
  for (let i = 0; i < parts; i++) text += pieces[Math.floor(random() * pieces.length)];
  return text;
}

describe("statesNumberAsWritten near month names, randomized", () => {
  it("never finds a value the full parse of the evidence lacks", () => {
    const random = seededRandom(31);
    // Month names in every spelling, the glue of dates (white space of several kinds, "," and
    // "."), days with ordinals, and words that only look like months.
    const pieces = [
      "1",
      "5",
      "12",
      "21",
      "2021",
      "1800",
      "1,200",
      "22.1%",
      " ",
      "  ",
      " ".repeat(20),
      "\t",
      "\u2009",
      "\u00a0",
      ", ",
      ",",
      ". ",
      ".",
      "March",
      " March",
      "Mar",
      "Mar.",
      "May",
      "Sept",
      "Sept.",
      " September",
      "June",
      "th",
      "st",
      "5th",
      "12th ",
      "21st",
      "in",
      "about",
      "A",
      "x",
      "(",
      "-",
      "/",
      "2021-03-05",
      "年",
      "月",
      "Marché",
      "éMarch",
      "_March",
      "No. ",
    ];
    let found = 0;
    for (let n = 0; n < 8000; n++) {
      const evidence = randomText(random, pieces, 2 + Math.floor(random() * 12));
      const values = evidenceNumberValues(evidence);
      const plain = evidence.normalize("NFKC");
      for (const mention of extractNumbers(
        randomText(random, pieces, 1 + Math.floor(random() * 3)),
      )) {
        if (!statesNumberAsWritten(plain, mention)) continue;
        found++;
        expect(values.has(mention.value), `${mention.raw} in ${JSON.stringify(evidence)}`).toBe(
          true,
        );
      }
    }
    expect(found).toBeGreaterThan(100);
  });
});

describe("extractNumbers, randomized", () => {
  it("reads what the grammar alone reads", () => {
    const random = seededRandom(2024);
    const pieces = [...ASCII_PIECES, ...OTHER_PIECES];
    let mentions = 0;
    for (let n = 0; n < 4000; n++) {
      const text = randomText(random, pieces, 1 + Math.floor(random() * 12));
      const found = extractNumbers(text);
      mentions += found.length;
      expect(found, JSON.stringify(text)).toEqual(extractNumbersByGrammar(text));
    }
    expect(mentions).toBeGreaterThan(4000);
  });

  it("reads a line of a text in place as it reads the line alone", () => {
    const random = seededRandom(7);
    let mentions = 0;
    for (let n = 0; n < 3000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        randomText(random, ASCII_PIECES, Math.floor(random() * 10)),
      );
      const text = lines.join("\n");
      // Where the digits are, as the gate learns it from tokenizing the lines.
      const marks: TextMarks = { digitRuns: [], capitals: [] };
      let from = 0;
      for (const line of lines) {
        contentTokensIn(text, from, from + line.length, marks);
        from += line.length + 1;
      }
      from = 0;
      for (const line of lines) {
        const expected = extractNumbers(line);
        const found = extractNumbersIn(text, from, from + line.length);
        mentions += found.length;
        expect(found, JSON.stringify([text, from])).toEqual(expected);
        expect(extractNumbersIn(text, from, from + line.length, marks)).toEqual(expected);
        from += line.length + 1;
      }
    }
    expect(mentions).toBeGreaterThan(3000);
  });
});
