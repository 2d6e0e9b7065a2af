import { describe, expect, it } from "vitest";
import { type RowResize, shouldKeepViewInPlace } from "./scroll-adjust";

const row = (over: Partial<RowResize>): RowResize => ({
  start: 0,
  size: 150,
  firstMeasure: true,
  knownOffset: 6000,
  pageOffset: 6000,
  scrollingUp: false,
  ...over,
});

describe("shouldKeepViewInPlace", () => {
  it("corrects for a row above the view measured for the first time", () => {
    expect(shouldKeepViewInPlace(row({ start: 5000 }))).toBe(true);
    expect(shouldKeepViewInPlace(row({ start: 6500 }))).toBe(false);
  });

  it("does not correct from a place the page has already left", () => {
    // The reader jumped to the top; the virtualizer still thinks the page is at 6000.
    expect(shouldKeepViewInPlace(row({ start: 5000, pageOffset: 0 }))).toBe(false);
  });

  it("re-measures only rows wholly above the view, and not while scrolling up", () => {
    const again = { firstMeasure: false };
    expect(shouldKeepViewInPlace(row({ ...again, start: 5000 }))).toBe(true);
    expect(shouldKeepViewInPlace(row({ ...again, start: 5900 }))).toBe(false);
    expect(shouldKeepViewInPlace(row({ ...again, start: 5000, scrollingUp: true }))).toBe(false);
  });
});
