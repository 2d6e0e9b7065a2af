import { describe, expect, it } from "vitest";
import { canonicalDecimal, evidenceNumberValues, extractNumbers } from "./numbers.js";

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

describe("evidenceNumberValues of a longer number or date", () => {
  const states = (evidence: string, claim: string) => {
    const [mention] = extractNumbers(claim);
    if (mention === undefined) throw new Error(`no number in ${claim}`);
    return evidenceNumberValues(evidence).has(mention.value);
  };

  it("finds a number spelled as in the claim, or otherwise", () => {
    expect(states("The port handled 6,643 tonnes.", "6,643 tonnes")).toBe(true);
    expect(states("The port handled 6643 tonnes.", "6,643 tonnes")).toBe(true);
    expect(states("It rose 22.1% last year.", "22.1%")).toBe(true);
  });

  it("does not take part of a longer number or date for the claim", () => {
    expect(states("It handled 16,643 tonnes.", "6,643")).toBe(false);
    expect(states("On 2021-03-05 it opened.", "03")).toBe(false);
    expect(states("It opened on March 5, 2021.", "5")).toBe(false);
    expect(states("2016年7月12日发生洪水", "12")).toBe(false);
    expect(states("It carried 4.2 million people.", "4.2")).toBe(false);
  });
});
