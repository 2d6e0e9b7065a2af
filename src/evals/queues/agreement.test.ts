import { describe, expect, it } from "vitest";
import {
  bootstrapAlpha,
  majorityChoice,
  pairJudgeAgreement,
  peopleAgreement,
  peopleStandings,
  type PersonLabel,
  topDisagreements,
} from "./agreement.js";
import type { Criterion } from "./rubric.js";

const PASS: Criterion = { name: "pass", scale: "pass_fail", description: "" };
const SCORE: Criterion = { name: "score", scale: "1-5", description: "" };

function labels(criterion: string, rows: (number | boolean | null)[][]): PersonLabel[] {
  const names = ["ann", "ben", "cat"];
  return rows.flatMap((row, position) =>
    row.flatMap((value, r) =>
      value === null
        ? []
        : [
            {
              item_id: `i${position}`,
              position,
              reviewer_id: `u${r}`,
              reviewer_name: names[r] as string,
              criterion,
              score: typeof value === "number" ? value : null,
              passed: typeof value === "boolean" ? value : null,
              choice: null,
            },
          ],
    ),
  );
}

describe("agreement between people", () => {
  it("gives α 1 and κ 1 when everyone agrees, and a narrow interval at 1", () => {
    const rows = [
      [true, true, true],
      [false, false, false],
      [true, true, null],
      [false, false, false],
    ];
    const [pass] = peopleAgreement([PASS], labels("pass", rows));
    expect(pass).toMatchObject({ criterion: "pass", metric: "nominal", items: 4, alpha: 1 });
    expect(pass!.alpha_ci).toEqual([1, 1]);
    expect(pass!.kappas).toEqual([
      { a: "ann", b: "ben", n: 4, agreement: 1, kappa: 1 },
      { a: "ann", b: "cat", n: 3, agreement: 1, kappa: 1 },
      { a: "ben", b: "cat", n: 3, agreement: 1, kappa: 1 },
    ]);
  });

  it("computes Krippendorff's worked nominal example (α = 0.743 with missing values)", () => {
    // Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", §C: 4 coders, 12 units,
    // values 1-5 with gaps; nominal α = 0.743. The coders are the reviewers here.
    const data = [
      [1, 1, null, 1],
      [2, 2, 3, 2],
      [3, 3, 3, 3],
      [3, 3, 3, 3],
      [2, 2, 2, 2],
      [1, 2, 3, 4],
      [4, 4, 4, 4],
      [1, 1, 2, 1],
      [2, 2, 2, 2],
      [null, 5, 5, 5],
      [null, null, 1, 1],
      [null, null, 3, null],
    ];
    const rows: PersonLabel[] = data.flatMap((row, position) =>
      row.flatMap((score, r) =>
        score === null
          ? []
          : [
              {
                item_id: `i${position}`,
                position,
                reviewer_id: `u${r}`,
                reviewer_name: `coder ${r}`,
                criterion: "code",
                score,
                passed: null,
                choice: null,
              },
            ],
      ),
    );
    // Nominal: a pass/fail criterion's metric, values as given.
    const [code] = peopleAgreement([{ name: "code", scale: "pass_fail", description: "" }], rows);
    expect(code!.alpha).toBeCloseTo(0.743, 3);
    expect(code!.items).toBe(11);
  });

  it("brackets α with a bootstrap interval that is reproducible from its seed", () => {
    const units = [
      [1, 2, 1],
      [3, 3, 4],
      [5, 4, 5],
      [2, 2, 2],
      [4, 5, 5],
      [1, 1, 2],
    ];
    const a = bootstrapAlpha(units, "ordinal", { seed: 3, samples: 400 });
    const b = bootstrapAlpha(units, "ordinal", { seed: 3, samples: 400 });
    expect(a).toEqual(b);
    expect(a![0]).toBeLessThan(a![1]);
    expect(bootstrapAlpha([[1, 2]], "ordinal")).toBeNull();
  });

  it("lists the widest disagreements first, scaled to the criterion's range", () => {
    const rows = labels("score", [
      [1, 5, 3],
      [2, 2, 2],
      [4, 5, 4],
      [1, 3, null],
    ]);
    expect(topDisagreements([SCORE], rows)).toEqual([
      { item_id: "i0", position: 0, spread: 1, criterion: "score" },
      { item_id: "i3", position: 3, spread: 0.5, criterion: "score" },
      { item_id: "i2", position: 2, spread: 0.25, criterion: "score" },
    ]);
    // Nominal: a two-one split of three is as far apart as three can be.
    const pass = labels("pass", [[true, false, true]]);
    expect(topDisagreements([PASS], pass)[0]?.spread).toBe(1);
  });

  it("reads people's majority on a pair and compares it with the judge per pair of contestants", () => {
    expect(majorityChoice(["a", "a", "b"])).toBe("a");
    expect(majorityChoice(["a", "b"])).toBe("tie");
    expect(majorityChoice([])).toBeNull();
    expect(
      pairJudgeAgreement([
        { a: "x", b: "y", judge: "a", people: "a" },
        { a: "x", b: "y", judge: "b", people: "a" },
        { a: "x", b: "z", judge: "tie", people: "tie" },
        { a: "x", b: "z", judge: null, people: "a" },
      ]),
    ).toEqual([
      { a: "x", b: "y", items: 2, agree: 1, share: 0.5 },
      { a: "x", b: "z", items: 1, agree: 1, share: 1 },
    ]);
  });
});

describe("peopleStandings", () => {
  const game = (a: string, b: string, people: "a" | "b" | "tie" | null) => ({ a, b, people });

  it("rates people's majorities by Bradley-Terry, best first, with each one's record", () => {
    const standings = peopleStandings([
      game("x", "y", "a"),
      game("x", "y", "a"),
      game("y", "x", "b"),
      game("y", "z", "a"),
      game("y", "z", "a"),
      game("z", "x", "a"),
      game("x", "z", "tie"),
      game("x", "z", null), // nobody labelled it: no game
    ]);
    expect(standings.map((s) => [s.contestant, s.wins, s.losses, s.ties])).toEqual([
      ["x", 3, 1, 1],
      ["y", 2, 3, 0],
      ["z", 1, 2, 1],
    ]);
    expect(standings[0]!.rating).toBeGreaterThan(standings[1]!.rating);
    expect(standings[1]!.rating).toBeGreaterThan(standings[2]!.rating);
    // The arena's scale: the mean rating is 1000 (a geometric mean of 1 for the strengths).
    const mean = standings.reduce((sum, s) => sum + s.rating, 0) / standings.length;
    expect(mean).toBeCloseTo(1000, 6);
  });

  it("gives finite ratings when one side won every game, and nothing without two contestants", () => {
    const sweep = peopleStandings([game("x", "y", "a"), game("x", "y", "a")]);
    expect(sweep.map((s) => s.contestant)).toEqual(["x", "y"]);
    expect(sweep.every((s) => Number.isFinite(s.rating))).toBe(true);
    expect(peopleStandings([game("x", "y", null)])).toEqual([]);
  });
});
