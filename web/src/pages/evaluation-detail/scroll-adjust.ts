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
