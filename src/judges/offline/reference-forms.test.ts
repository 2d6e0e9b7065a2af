import { describe, expect, it } from "vitest";
import { referenceForms } from "./reference-forms.js";

describe("referenceForms", () => {
  it("drops a note in brackets", () => {
    expect(referenceForms("ABBA (he directed almost all of ABBA's promotional films)")).toEqual([
      "ABBA",
    ]);
    expect(referenceForms("5.97 m (19 ft 7 in)")).toEqual(["5.97 m"]);
  });

  it("keeps the head before a clause that explains it", () => {
    expect(referenceForms("Nicholas Breakspear, who was Adrian IV from 1154 to 1159")).toEqual([
      "Nicholas Breakspear",
    ]);
  });

  it("splits alternatives joined by or", () => {
    expect(referenceForms("The Spot, or thespot.com")).toEqual(["The Spot", "thespot.com"]);
    expect(referenceForms("(John) EHRLICHMANN or (Bob) HALDEMAN")).toEqual([
      "EHRLICHMANN or HALDEMAN",
      "EHRLICHMANN",
      "HALDEMAN",
    ]);
  });

  it("has no other form for a plain reference", () => {
    expect(referenceForms("Spartacus")).toEqual([]);
    expect(referenceForms("It is naturally magnetised")).toEqual([]);
  });
});
