import { describe, expect, it } from "vitest";
import { ENGLISH_STOPWORDS } from "./stopwords.js";
import {
  contentForm,
  contentTokenSet,
  contentTokens,
  contentTokensIn,
  forEachWord,
  hasUnspacedScript,
  stemToken,
  tokenize,
} from "./tokenize.js";
import { seededRandom } from "../../test/support/seeded-random.js";

describe("tokenize", () => {
  it("splits English on non-letters and lower-cases", () => {
    expect(tokenize("The Harbour's 3 bridges, e.g. Old-Quay!")).toEqual([
      "the",
      "harbour",
      "s",
      "3",
      "bridges",
      "e",
      "g",
      "old",
      "quay",
    ]);
  });

  it("segments Chinese with ICU and keeps digits apart from Han", () => {
    const words = tokenize("澜汀大学成立于1952年，现有学生");
    expect(words).toContain("大学");
    expect(words).toContain("成立");
    expect(words).toContain("1952");
    expect(words).toContain("学生");
    expect(words.join("")).toBe("澜汀大学成立于1952年现有学生");
  });

  it("handles Japanese, Korean and Thai runs", () => {
    expect(tokenize("東京は日本の首都です")).toContain("東京");
    expect(tokenize("서울은 한국의 수도입니다")).toContain("서울은");
    expect(tokenize("ภาษาไทยง่าย")).toContain("ภาษา");
  });

  it("reads full-width letters and mixed scripts", () => {
    expect(tokenize("ＡＢＣ metro 站")).toEqual(["abc", "metro", "站"]);
    expect(tokenize("Café Noël")).toEqual(["café", "noël"]);
  });
});

describe("forEachWord", () => {
  it("may be called again from inside its own visit (it used to restart forever on Chinese text)", () => {
    const outer: string[] = [];
    const inner: string[] = [];
    forEachWord("澜汀 metro 大学", (word) => {
      outer.push(word);
      forEachWord("Café 洪水", (nested) => inner.push(nested));
    });
    expect(outer).toEqual(tokenize("澜汀 metro 大学"));
    expect(outer).toContain("metro");
    expect(inner).toEqual(outer.flatMap(() => tokenize("Café 洪水")));
  });
});

describe("content tokens", () => {
  it("drop stopwords, bare digits and single letters, and fold plurals", () => {
    expect(contentTokens("The city has 3 bridges and 2 ferries, a x.")).toEqual([
      "city",
      "bridge",
      "ferry",
    ]);
  });

  it("drop Chinese particles and measure words", () => {
    const tokens = contentTokens("澜汀大学成立于1952年，现有学生两万人。");
    expect(tokens).toContain("大学");
    expect(tokens).toContain("学生");
    expect(tokens).not.toContain("于");
    expect(tokens).not.toContain("年");
    expect(tokens).not.toContain("1952");
  });

  it("are the same whether read by the ASCII scanner or the Unicode path", () => {
    const english = "Harbour Authority opened 4 new berths in the eastern quays";
    expect(contentTokens(`${english} é`).slice(0, -1)).toEqual(contentTokens(english));
    expect(contentTokens(`é ${english}`).slice(1)).toEqual(contentTokens(english));
  });

  it("never include a stopword, and every token is its own content form", () => {
    const text = "Thes ours cats were glasses analyses buses cities 12s 123s THE Bridges";
    for (const token of contentTokenSet(text)) {
      expect(ENGLISH_STOPWORDS.has(token)).toBe(false);
      expect(contentForm(token)).toBe(token);
    }
  });
});

describe("stemToken", () => {
  it("folds common plurals and leaves other words", () => {
    expect(stemToken("bridges")).toBe("bridge");
    expect(stemToken("cities")).toBe("city");
    expect(stemToken("churches")).toBe("church");
    expect(stemToken("boxes")).toBe("box");
    expect(stemToken("glass")).toBe("glass");
    expect(stemToken("bus")).toBe("bus");
    expect(stemToken("analysis")).toBe("analysis");
    expect(stemToken("gas")).toBe("gas");
  });

  it("is idempotent", () => {
    for (const word of ["bridges", "cities", "churches", "buses", "glasses", "statuses", "tons"]) {
      expect(stemToken(stemToken(word))).toBe(stemToken(word));
    }
  });
});

describe("hasUnspacedScript", () => {
  it("detects Han, kana, Hangul and Thai only", () => {
    expect(hasUnspacedScript("abc 澜")).toBe(true);
    expect(hasUnspacedScript("カタカナ")).toBe(true);
    expect(hasUnspacedScript("한국")).toBe(true);
    expect(hasUnspacedScript("ไทย")).toBe(true);
    expect(hasUnspacedScript("café Ελληνικά")).toBe(false);
  });
});

// Stopwords (some plural-looking: "ours", "its"), plurals of every kind, digits, mixed case,
// contractions, separators, and a few non-ASCII pieces that switch to the Unicode path.
const PIECES = [
  "the",
  "The",
  "THE",
  "of",
  "ours",
  "its",
  "is",
  "us",
  "bridges",
  "Bridges",
  "cities",
  "churches",
  "boxes",
  "glasses",
  "analysis",
  "buses",
  "gas",
  "tonnes",
  "berth",
  "A380",
  "12s",
  "123s",
  "3",
  "1,200",
  "x",
  "a",
  "harbour's",
  "don't",
  "e.g.",
  " ",
  " ",
  " ",
  ", ",
  ". ",
  "\n",
  "-",
  "_",
  "(",
  "[1]",
  "café",
  "澜汀大学",
  "Ｂｒｉｄｇｅｓ",
];

describe("content tokens, randomized", () => {
  const random = seededRandom(99);
  const text = (parts: number) => {
    let out = "";
    for (let i = 0; i < parts; i++) out += PIECES[Math.floor(random() * PIECES.length)];
    return out;
  };

  it("are the content forms of the words", () => {
    for (let n = 0; n < 3000; n++) {
      const sample = text(1 + Math.floor(random() * 12));
      const forms = tokenize(sample)
        .map(contentForm)
        .filter((form) => form !== undefined);
      expect(contentTokens(sample), JSON.stringify(sample)).toEqual(forms);
    }
  });

  it("read in place from a range are those of the range alone", () => {
    for (let n = 0; n < 3000; n++) {
      const sample = text(2 + Math.floor(random() * 12));
      const from = Math.floor(random() * sample.length);
      const to = from + Math.floor(random() * (sample.length - from + 1));
      expect(contentTokensIn(sample, from, to), JSON.stringify([sample, from, to])).toEqual(
        contentTokens(sample.slice(from, to)),
      );
    }
  });
});
