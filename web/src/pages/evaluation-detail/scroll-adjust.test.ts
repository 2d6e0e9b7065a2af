import { describe, expect, it } from "vitest";
import { guardScrollWrites, type RowResize, shouldKeepViewInPlace } from "./scroll-adjust";

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

describe("guardScrollWrites", () => {
  /** A page of 6,000 px that the browser clamps writes to, as it does at the page's end. */
  const page = () => {
    const state = { y: 0, writes: [] as number[] };
    const write = (offset: number, options: { adjustments?: number }) => {
      const target = offset + (options.adjustments ?? 0);
      state.writes.push(target);
      state.y = Math.min(Math.max(target, 0), 6000);
    };
    return { state, write };
  };

  it("lets the virtualizer move the page from where it read it or where it last wrote", () => {
    const { state, write } = page();
    const guarded = guardScrollWrites(write, () => state.y);
    state.y = 5900;
    guarded(5900, { adjustments: 300 }, { scrollOffset: 5900 });
    // Cut short at the end: the page is at 6000, the virtualizer believes 6200. A retry may go on.
    expect(state.y).toBe(6000);
    guarded(6200, {}, { scrollOffset: 6200 });
    expect(state.writes).toEqual([6200, 6200]);
  });

  it("drops a write computed from a place the reader has jumped away from", () => {
    const { state, write } = page();
    const guarded = guardScrollWrites(write, () => state.y);
    state.y = 5900;
    guarded(5900, { adjustments: 300 }, { scrollOffset: 5900 });
    state.y = 0; // Home: the scroll event has not reached the virtualizer yet.
    guarded(6200, {}, { scrollOffset: 6200 });
    expect(state.y).toBe(0);
    expect(state.writes).toEqual([6200]);
    // Once it has read the new place, it writes again.
    guarded(0, { adjustments: 20 }, { scrollOffset: 0 });
    expect(state.y).toBe(20);
  });
});
