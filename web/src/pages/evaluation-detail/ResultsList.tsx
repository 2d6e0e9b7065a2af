import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useEffect, useRef, useState } from "react";
import type { EvaluationResultListItem } from "../../api/types";
import { useI18n } from "../../i18n/i18n";
import { ResultComparisonCard } from "./ResultComparisonCard";

/** A closed card's height; opened ones are measured as they render. */
const CLOSED_CARD_PX = 150;

/**
 * The results as a virtualized list: only the cards in view (and a few around) are in the page,
 * so a 10,000-question run scrolls like a short one. Rows are memoized: scrolling renders only
 * the cards that come into view. The next page is asked for as its end nears. `resetKey` (the
 * filters) changing scrolls back to the top.
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
  const scroller = useRef<HTMLDivElement>(null);
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
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => CLOSED_CARD_PX,
    overscan: 4,
    getItemKey: (index) => results[index]?.id ?? "more",
    // Rows render in React's own task, not inside each scroll event: shorter tasks while scrolling.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= results.length - 5) loadMore();
  }, [hasMore, loadingMore, lastIndex, results.length, loadMore]);

  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [resetKey]);

  return (
    <div
      ref={scroller}
      className="results-scroller"
      data-testid="results-scroller"
      tabIndex={0}
      aria-label={t("detail.results")}
      aria-busy={loadingMore}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }} role="list">
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
                transform: `translateY(${item.start}px)`,
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
    </div>
  );
});
