import { describe, expect, it } from "vitest";
import { EvidenceText } from "./groundedness.js";
import { type MatchInput, matchReferences } from "./reference-match.js";

function match(
  question: string,
  answer: string,
  references: string[],
  extra: Partial<MatchInput> = {},
) {
  return matchReferences(
    {
      question,
      claims: answer,
      abstained: false,
      declines: false,
      references,
      referenceAbstains: references.map(() => false),
      ...extra,
    },
    (texts) => new EvidenceText(texts),
  );
}

const verdict = (question: string, answer: string, references: string[]) =>
  match(question, answer, references).verdict;

describe("what it takes to state a reference", () => {
  it("accepts a verbose answer that says the reference and adds context", () => {
    const m = match(
      "Which team won Super Bowl 50?",
      "Super Bowl 50 was won by the Denver Broncos, who beat the Carolina Panthers 24–10 at Levi's Stadium on February 7, 2016.",
      ["Denver Broncos"],
    );
    expect(m).toMatchObject({ verdict: "correct", matched_by: "contains", coverage: 1 });
  });

  it("reads dates in any order and spelling", () => {
    const q = "When did Line 1 open?";
    expect(verdict(q, "It opened on September 18, 2009.", ["18 September 2009"])).toBe("correct");
    expect(verdict(q, "2009-09-18", ["18 September 2009"])).toBe("correct");
    expect(verdict(q, "2009年9月18日开通。", ["18 September 2009"])).toBe("correct");
    // A month for a day is close enough; a year alone is vaguer, and does not pass.
    expect(match(q, "It opened in September 2009.", ["18 September 2009"])).toMatchObject({
      verdict: "correct",
      coarser: true,
    });
    expect(match(q, "It opened in 2009.", ["18 September 2009"])).toMatchObject({
      verdict: "partial",
      coarser: true,
    });
    // A more precise date holds a year.
    expect(verdict("In what year was the fire?", "On 14 October 1869.", ["1869"])).toBe("correct");
  });

  it("reads numbers with separators, scales and words", () => {
    const q = "How many passengers did the airport handle?";
    expect(verdict(q, "About 11,300,000 passengers.", ["11.3 million"])).toBe("correct");
    expect(verdict("How many stations does Line 2 have?", "fourteen", ["14"])).toBe("correct");
    expect(verdict("全市共有多少人紧急撤离？", "共有一万两千人撤离。", ["1.2万人"])).toBe(
      "correct",
    );
    expect(verdict("有几个车站进水？", "五个。", ["5个", "5"])).toBe("correct");
  });

  it("takes units as part of a number: metres are m and 米, minutes are not days", () => {
    expect(verdict("玉江水位达到海拔多少米？", "6.3 m", ["6.3米"])).toBe("correct");
    // "5天" is not five stations; "9个" is a different count of them.
    expect(match("有几个车站进水？", "有9个地下车站进水，停运5天。", ["5个", "5"])).toMatchObject({
      verdict: "contradicted",
    });
  });

  it("accepts a name by its last word unless another first name stands before it", () => {
    const q = "Who wrote Pride and Prejudice?";
    expect(match(q, "Austen.", ["Jane Austen"])).toMatchObject({
      verdict: "correct",
      matched_by: "name",
    });
    expect(verdict("Who painted the Mona Lisa?", "Da Vinci.", ["Leonardo da Vinci"])).toBe(
      "correct",
    );
    expect(verdict(q, "It was Cassandra Austen.", ["Jane Austen"])).not.toBe("correct");
    expect(verdict("Who led them?", "Wei Tinghai.", ["Wei Chenghai"])).toBe("partial");
  });

  it("needs every part of a reference with several facts", () => {
    const q = "When was the bridge opened, and how many lanes does it carry?";
    const reference = ["It opened in 1962 and carries six traffic lanes."];
    expect(verdict(q, "It opened in 1962 with 6 lanes.", reference)).toBe("correct");
    expect(match(q, "1962", reference)).toMatchObject({ verdict: "partial", missing: ["six"] });
  });
});

describe("contradictions", () => {
  it("catches another value for the same thing", () => {
    const m = match("In what year was the fire?", "The Great Fire happened in 1870.", ["1869"]);
    expect(m.verdict).toBe("contradicted");
    expect(m.contradictions).toEqual(["1870 where the reference says 1869"]);
    expect(
      verdict("How many lanes?", "It carries four traffic lanes.", ["six traffic lanes"]),
    ).toBe("contradicted");
  });

  it("does not take one of the reference's own figures for a wrong value of another", () => {
    // Issue 23: "1875 where the reference says 1870", though the reference says "by 1875" too.
    const q = "Why are many warehouses in the Lower Quay district built of grey brick?";
    const reference = [
      "After the Great Fire of 1869, the Brick Ordinance of 1870 banned new timber buildings within 500 metres of the waterfront, so the district was rebuilt in grey brick by 1875.",
    ];
    const partOfIt = match(
      q,
      "By 1875 the Lower Quay district had been rebuilt in grey brick.",
      reference,
    );
    expect(partOfIt.contradictions).toEqual([]);
    expect(partOfIt.verdict).toBe("partial");
    const most = match(
      q,
      "The Brick Ordinance of 1870 banned new timber buildings within 500 metres of the waterfront. By 1875 the district had been rebuilt in grey brick.",
      reference,
    );
    expect(most.contradictions).toEqual([]);
    expect(most.missing).toContain("1869");
    // A year the reference does not give still contradicts it.
    const wrong = match(
      q,
      "The Brick Ordinance of 1872 banned timber buildings; by 1875 it was rebuilt.",
      reference,
    );
    expect(wrong.contradictions).toContain("1872 where the reference says 1870");
  });

  it("lets other figures stand beside the right one", () => {
    expect(
      verdict(
        "How many stations does Line 2 have?",
        "Line 2 has 14 stations. Line 1, by comparison, has 19 stations.",
        ["14 stations"],
      ),
    ).toBe("correct");
  });

  it("does not count a reference named only to be denied or displaced", () => {
    expect(
      verdict(
        "Which team won Super Bowl 50?",
        "The Carolina Panthers won, defeating the Denver Broncos.",
        ["Denver Broncos"],
      ),
    ).toBe("contradicted");
    expect(
      verdict(
        "What is the largest planet?",
        "Saturn is the largest, slightly bigger than Jupiter.",
        ["Jupiter"],
      ),
    ).toBe("contradicted");
    expect(verdict("When was the charter granted?", "Not in 1784 but in 1811.", ["1811"])).toBe(
      "correct",
    );
    expect(verdict("中国的首都是哪里？", "不是上海，是北京。", ["北京"])).toBe("correct");
  });

  it("does not accept a guess between two candidates", () => {
    expect(
      match("What is the capital of Australia?", "It may be Sydney or Canberra.", ["Canberra"]),
    ).toMatchObject({ verdict: "partial", hedged: true });
    expect(verdict("日本的首都是哪里？", "可能是大阪或者东京。", ["东京"])).toBe("partial");
  });
});

describe("several references and abstention", () => {
  it("judges against the best-matching reference", () => {
    const m = match("Who is the author of 1984?", "Eric Arthur Blair wrote it.", [
      "George Orwell",
      "Eric Arthur Blair",
    ]);
    expect(m).toMatchObject({ verdict: "correct", reference_index: 1 });
  });

  it("says an answer abstained, and counts declining right where the reference does", () => {
    expect(
      match("Who was mayor?", "", ["Wei Chenghai"], { abstained: true, declines: true }).verdict,
    ).toBe("abstained");
    expect(
      match("Who was mayor?", "", ["The sources do not say."], {
        abstained: true,
        declines: true,
        referenceAbstains: [true],
      }),
    ).toMatchObject({ verdict: "correct", matched_by: "abstention" });
  });
});

describe("matchReferences on public TriviaQA answers (issue 26)", () => {
  const verdictOf = (question: string, claims: string, references: string[]) =>
    matchReferences(
      {
        question,
        claims,
        abstained: false,
        declines: false,
        references,
        referenceAbstains: references.map(() => false),
      },
      (texts) => new EvidenceText(texts),
    ).verdict;

  it("reads a copula as the end of a denial's reach", () => {
    expect(
      verdictOf(
        "Which city fought three wars against Rome?",
        "The city that fought three wars against Rome was Carthage.",
        ["Carthage"],
      ),
    ).toBe("correct");
    expect(
      verdictOf(
        "What is the smallest prime greater than 10?",
        "The smallest prime greater than 10 is 11.",
        ["eleven"],
      ),
    ).toBe("correct");
    expect(
      verdictOf("Who did Rome fight?", "Rome fought against Carthage.", ["Carthage"]),
    ).not.toBe("correct");
  });

  it("takes a reference's head as the reference", () => {
    expect(
      verdictOf("Who was the only Englishman to become Pope?", "Nicholas Breakspear", [
        "Nicholas Breakspear, who was Adrian IV from 1154 to 1159",
      ]),
    ).toBe("correct");
  });

  it("finds a two-word reference written as one word, and words in another inflection", () => {
    expect(
      verdictOf("What does Sally sell by the sea shore?", "Sally sells seashells.", ["Sea Shells"]),
    ).toBe("correct");
    expect(
      verdictOf("Who did the British fight at Rorke's Drift?", "They fought the Zulu warriors.", [
        "Zulus",
      ]),
    ).toBe("correct");
  });

  it("does not take a reference's qualifier after a comma for the reference", () => {
    expect(
      verdictOf(
        "Where is the headquarters of Boeing?",
        "It is in Arlington, Virginia, in the United States of America.",
        ["Seattle, United States of America"],
      ),
    ).not.toBe("correct");
  });

  it("reads a day without a year as held by that day in any year, and accents as folded", () => {
    expect(
      verdictOf("On what day did Armstrong first walk on the Moon?", "On July 20, 1969.", [
        "July 20",
      ]),
    ).toBe("correct");
    expect(verdictOf("What is the capital of Togo?", "The capital is Lomé.", ["Lome"])).toBe(
      "correct",
    );
  });

  it("still reads a first name alone as another person", () => {
    expect(verdictOf("Who led them?", "They were led by Wei Tinghai.", ["Wei Chenghai"])).not.toBe(
      "correct",
    );
  });
});

describe("how web and chat answers spell a reference (issue 26)", () => {
  it("reads typographic quotes as punctuation", () => {
    // The question offers the figures, so only the answer's words in order can state one.
    const q = "Which title was it: 'Apollo 11' or 'Apollo 13'?";
    expect(verdict(q, "The film is called ‘Apollo 13’.", ["Apollo 13"])).toBe("correct");
    expect(
      match(q, "The film is called ‘Apollo 13’.", ["Apollo 13"], {
        components: { plainQuotes: false },
      }).verdict,
    ).not.toBe("correct");
  });

  it("accepts another spelling of a long word, not of a short one", () => {
    const q = "Who composed the opera?";
    // One letter added or dropped, accents folded.
    expect(verdict(q, "It was written by Pyotr Tchaikovsky.", ["Pyotr Tchaikovskii"])).toBe(
      "correct",
    );
    expect(verdict(q, "Antonín Dvořák wrote it.", ["Antonin Dvorak"])).toBe("correct");
    // Short words stay exact: one letter makes another place.
    expect(verdict("Which city?", "Parma.", ["Parms"])).not.toBe("correct");
    // Another first letter is another word.
    expect(verdict("Which state?", "It was Russia.", ["Prussia"])).not.toBe("correct");
    expect(
      match(q, "It was written by Pyotr Tchaikovsky.", ["Pyotr Tchaikovskii"], {
        components: { spelling: false },
      }).verdict,
    ).not.toBe("correct");
  });

  it("finds a name by its last word spelled another way", () => {
    const q = "Who starred in the film?";
    expect(match(q, "The lead was Tchaikovskii.", ["Pyotr Tchaikovsky"]).verdict).toBe("correct");
    // A capitalised word before the last name that is no spelling of the first name is someone
    // else; a lower-case word is not a name at all.
    expect(match(q, "The lead was Modest Tchaikovsky.", ["Pyotr Tchaikovsky"]).verdict).not.toBe(
      "correct",
    );
    expect(verdict("Which acid is in vinegar?", "Citric acid.", ["Acetic Acid"])).not.toBe(
      "correct",
    );
  });

  it("does not take a name the question already gives as the answer", () => {
    expect(
      verdict(
        "What stage name did the singer Georgios Panayiotou use?",
        "Georgios Panayiotu used no stage name.",
        ["Georgios Panayiotou (singer)", "George Michael"],
      ),
    ).not.toBe("correct");
  });

  it("does not count a closing bracketed note alone as the answer", () => {
    const q = "Which kingdom ruled the city in 1800?";
    expect(verdict(q, "The German states ruled it.", ["Prussia (Germany)"])).not.toBe("correct");
    expect(verdict(q, "Prussia ruled it.", ["Prussia (Germany)"])).toBe("correct");
  });

  it("reads no unit after a year, so a later year about something else does not contradict", () => {
    const q = "When was the park listed?";
    const answer =
      "The park was first listed in 1981 thanks to its geology. In 1994 it was listed again for its culture.";
    expect(verdict(q, answer, ["1981", "1981 time"])).toBe("correct");
  });

  it("reads a day without a year as a date, so a small number nearby is no other day", () => {
    const q = "On what day in 1944 did the landings begin?";
    const answer =
      "The landings began on June 6, 1944. It was one of the largest operations of the war.";
    expect(verdict(q, answer, ["June 6"])).toBe("correct");
  });

  it("reads common unit abbreviations", () => {
    expect(verdict("How long did the race last?", "It lasted 24 hrs.", ["24 hours"])).toBe(
      "correct",
    );
    expect(verdict("How heavy was the cat?", "It weighed 12 lbs.", ["12 pounds"])).toBe("correct");
  });

  it("reads another first name before the last name as another person", () => {
    const q = "Who wrote the song?";
    expect(verdict(q, "It was written by Timothy Baker.", ["Tom Baker"])).not.toBe("correct");
  });
});
