import { describe, expect, it } from "vitest";
import { exactMatch, normalizeAnswer, squadTokens, tokenF1 } from "./squad.js";

describe("normalizeAnswer (SQuAD's normalize_answer)", () => {
  it("lower-cases, deletes punctuation, drops articles and collapses whitespace", () => {
    expect(normalizeAnswer("The  Denver Broncos!")).toBe("denver broncos");
    expect(normalizeAnswer("a cat in   the hat")).toBe("cat in hat");
    // Punctuation is deleted, not replaced by a space, as in SQuAD.
    expect(normalizeAnswer("U.S. Army's 18,400 men")).toBe("us armys 18400 men");
    expect(normalizeAnswer("“Theatre”, an (old) word…")).toBe("theatre old word");
    expect(normalizeAnswer("Opened in 1962 [2][lanting-transport#2]【3】.")).toBe("opened in 1962");
  });

  it("keeps articles inside words and reads full-width text", () => {
    expect(normalizeAnswer("Theory of another atheist")).toBe("theory of another atheist");
    expect(normalizeAnswer("ＡＢＣ　Ｔｈｅ")).toBe("abc");
  });

  it("makes each Han character a token and keeps other runs whole (MLQA mixed segmentation)", () => {
    expect(squadTokens("北京是中国的首都。")).toEqual([
      "北",
      "京",
      "是",
      "中",
      "国",
      "的",
      "首",
      "都",
    ]);
    expect(squadTokens("地铁3号线，22.6 km")).toEqual(["地", "铁", "3", "号", "线", "226", "km"]);
    expect(squadTokens("Lanting 澜汀 metro")).toEqual(["lanting", "澜", "汀", "metro"]);
  });
});

describe("exactMatch", () => {
  it("is 1 when the normalized answers are equal", () => {
    expect(exactMatch("the Denver Broncos", "Denver Broncos!")).toBe(1);
    expect(exactMatch("Denver Broncos.", "denver broncos")).toBe(1);
    expect(exactMatch("首都是北京。", "首都是北京")).toBe(1);
  });

  it("is 0 otherwise", () => {
    expect(exactMatch("Denver Broncos won", "Denver Broncos")).toBe(0);
    expect(exactMatch("Broncos Denver", "Denver Broncos")).toBe(0);
    expect(exactMatch("", "Denver Broncos")).toBe(0);
  });
});

describe("tokenF1", () => {
  it("scores shared tokens as in SQuAD", () => {
    // [denver, broncos, won] vs [denver, broncos]: P 2/3, R 1, F1 0.8.
    const f = tokenF1("The Denver Broncos won.", "Denver Broncos");
    expect(f.precision).toBeCloseTo(2 / 3, 10);
    expect(f.recall).toBe(1);
    expect(f.f1).toBeCloseTo(0.8, 10);
  });

  it("ignores articles and punctuation", () => {
    // [broncos, of, denver] vs [denvers, broncos]: one shared token, P 1/3, R 1/2.
    expect(tokenF1("the Broncos, of Denver!", "Denver's a Broncos").f1).toBeCloseTo(0.4, 10);
    expect(tokenF1("Santa Clara, California", "Santa Clara").f1).toBeCloseTo(0.8, 10);
  });

  it("counts repeated tokens as a multiset", () => {
    // [cat, cat, dog] vs [cat, dog, dog]: shared cat ×1 and dog ×1.
    const f = tokenF1("cat cat dog", "cat dog dog");
    expect(f.precision).toBeCloseTo(2 / 3, 10);
    expect(f.recall).toBeCloseTo(2 / 3, 10);
  });

  it("gives Chinese a meaningful F1 through character tokens", () => {
    // 8 characters vs 5, all 5 of the reference shared: P 5/8, R 1, F1 10/13.
    const f = tokenF1("北京是中国的首都", "首都是北京");
    expect(f.precision).toBeCloseTo(5 / 8, 10);
    expect(f.recall).toBe(1);
    expect(f.f1).toBeCloseTo(10 / 13, 10);
    // 1952 vs 1898: only the characters around the year agree.
    expect(tokenF1("成立于1898年", "成立于1952年").f1).toBeCloseTo(0.8, 10);
  });

  it("follows SQuAD v2 when a side has no tokens", () => {
    expect(tokenF1("", "").f1).toBe(1);
    expect(tokenF1("the", "a").f1).toBe(1);
    expect(tokenF1("", "Denver").f1).toBe(0);
    expect(tokenF1("Denver", "?").f1).toBe(0);
    expect(tokenF1("Denver", "Boston").f1).toBe(0);
  });
});
