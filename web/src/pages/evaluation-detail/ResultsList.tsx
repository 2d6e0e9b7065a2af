import { useWindowVirtualizer, windowScroll } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { EvaluationResultListItem } from "../../api/types";
import { useI18n } from "../../i18n/i18n";
import { ResultComparisonCard } from "./ResultComparisonCard";
import { guardScrollWrites, shouldKeepViewInPlace } from "./scroll-adjust";

/** A closed card's height; opened ones are measured as they render. */
const CLOSED_CARD_PX = 150;

/** Where the list starts in the document: what lies above it (summary, charts) is measured. */
function useDocumentTop(element: React.RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const el = element.current;
      if (el) setTop(Math.round(el.getBoundingClientRect().top + window.scrollY));
    };
    measure();
    // Charts and the summary load after the list: the page's size changing may move it.
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [element]);
  return top;
}

/**
 * The results as a virtualized list in the page's own scroll (one scrollbar, an opened card
 * never clipped by a box of its own): only the cards in view (and a few around) are in the page,
 * so a 10,000-question run scrolls like a short one. Rows are memoized: scrolling renders only
 * the cards that come into view. The next page is asked for as its end nears. `resetKey` (the
 * filters) changing brings the list's start back into view.
 */
export const ResultsList = memo(function ResultsList({
  evaluationId,
  results,
  hasMore,
  loadMore,
  loadingMore,
  resetKey,
}: {
  evaluationId: string;
  results: EvaluationResultListItem[];
  hasMore: boolean;
  loadMore: () => void;
  loadingMore: boolean;
  resetKey: string;
}) {
  const { t } = useI18n();
  const list = useRef<HTMLDivElement>(null);
  const top = useDocumentTop(list);
  // Which cards are open, by result id: kept while a card scrolls out of view and back.
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (id: string) =>
      setOpened((old) => {
        const next = new Set(old);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const count = results.length + (hasMore ? 1 : 0);
  // Its own writer per list: it remembers where its last write left the page.
  const [guardedScroll] = useState(() => guardScrollWrites(windowScroll, () => window.scrollY));
  const virtualizer = useWindowVirtualizer({
    count,
    scrollMargin: top,
    estimateSize: () => CLOSED_CARD_PX,
    overscan: 4,
    getItemKey: (index) => results[index]?.id ?? "more",
    // Rows render in React's own task, not inside each scroll event: shorter tasks while scrolling.
    useFlushSync: false,
    scrollToFn: guardedScroll,
  });
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) =>
    shouldKeepViewInPlace({
      start: item.start,
      size: item.size,
      firstMeasure: !instance.itemSizeCache.has(item.key),
      knownOffset: instance.scrollOffset ?? 0,
      pageOffset: window.scrollY,
      scrollingUp: instance.scrollDirection === "backward",
    });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= results.length - 5) loadMore();
  }, [hasMore, loadingMore, lastIndex, results.length, loadMore]);

  // A new filter's list starts at its first card, not wherever the last one was scrolled to.
  const scrollMargin = useRef(top);
  scrollMargin.current = top;
  useEffect(() => {
    if (window.scrollY > scrollMargin.current) window.scrollTo({ top: scrollMargin.current });
  }, [resetKey]);

  return (
    <div
      ref={list}
      data-testid="results-list"
      role="list"
      aria-label={t("detail.results")}
      aria-busy={loadingMore}
      className="results-list"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {items.map((item) => {
        const result = results[item.index];
        return (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            role="listitem"
            className="result-row"
            style={{
              position: "absolute",
              top: 0,
              left: 0,
              width: "100%",
              transform: `translateY(${item.start - top}px)`,
            }}
          >
            {result ? (
              <ResultComparisonCard
                evaluationId={evaluationId}
                item={result}
                open={opened.has(result.id)}
                onToggle={toggle}
              />
            ) : (
              <p className="muted">{t("common.loading")}</p>
            )}
          </div>
        );
      })}
    </div>
  );
});
