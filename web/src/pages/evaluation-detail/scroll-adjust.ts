/** What the virtualizer knows when a row's measured height differs from what it assumed. */
export interface RowResize {
  /** Where the row starts in the document, and its height before this measurement. */
  start: number;
  size: number;
  /** Whether the row is measured for the first time (its height was only an estimate). */
  firstMeasure: boolean;
  /** The scroll position the virtualizer last read, and the page's real one now. */
  knownOffset: number;
  pageOffset: number;
  scrollingUp: boolean;
}

/**
 * Whether a row changing height above the view should move the page by the same amount, so what
 * the reader looks at stays put. The library's own rule, with one guard: when the page has been
 * moved since the virtualizer last read its place (a jump to the top, the Home key), a correction
 * computed from the old place would throw the page back where it was.
 */
export function shouldKeepViewInPlace(row: RowResize): boolean {
  if (Math.abs(row.pageOffset - row.knownOffset) > 1) return false;
  if (row.firstMeasure) return row.start < row.knownOffset;
  // A row spanning the view's top that grows (a card opened) grows below the reader's place.
  return row.start + row.size <= row.knownOffset && !row.scrollingUp;
}

type ScrollTo<I> = (
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: I,
) => void;

/**
 * Wraps the virtualizer's scroll writer so it never moves the page from a place the reader has
 * left. The library remembers a correction it could not finish (the page was too short, at its
 * end) and retries it when the page grows; if the reader jumps to the top first and the retry
 * runs before the scroll event reaches the virtualizer, the retry throws the page back down. A
 * write goes ahead only while the page is where the virtualizer last read it, or where this
 * writer's own last write left it (a write the browser cut short at the page's end).
 */
export function guardScrollWrites<I extends { scrollOffset: number | null }>(
  write: ScrollTo<I>,
  pageOffset: () => number,
): ScrollTo<I> {
  let leftAt: number | null = null;
  return (offset, options, instance) => {
    const now = pageOffset();
    const movedByOthers =
      leftAt !== null &&
      Math.abs(now - leftAt) > 1 &&
      Math.abs(now - (instance.scrollOffset ?? 0)) > 1;
    if (movedByOthers) return;
    write(offset, options, instance);
    leftAt = pageOffset();
  };
}
