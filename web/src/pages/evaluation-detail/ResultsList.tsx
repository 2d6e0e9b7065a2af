import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import type { EvaluationResult } from "../../api/types";
import { useI18n } from "../../i18n/i18n";
import { ResultComparisonCard } from "./ResultComparisonCard";

/**
 * The results as a virtualized list: only the cards in view (and a few around) are in the page,
 * so a 10,000-question run scrolls like a short one. The next page is asked for as its end nears.
 */
export function ResultsList({
  results,
  hasMore,
  loadMore,
  loadingMore,
}: {
  results: EvaluationResult[];
  hasMore: boolean;
  loadMore: () => void;
  loadingMore: boolean;
}) {
  const { t } = useI18n();
  const scroller = useRef<HTMLDivElement>(null);
  const count = results.length + (hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => 260,
    overscan: 4,
    getItemKey: (index) => results[index]?.id ?? "more",
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= results.length - 5) loadMore();
  }, [hasMore, loadingMore, lastIndex, results.length, loadMore]);

  return (
    <div
      ref={scroller}
      className="results-scroller"
      data-testid="results-scroller"
      tabIndex={0}
      aria-label={t("detail.results")}
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
              style={{
                position: "absolute",
                top: 0,
                left: 0,
                width: "100%",
                transform: `translateY(${item.start}px)`,
              }}
            >
              {result ? (
                <ResultComparisonCard result={result} />
              ) : (
                <p className="muted">{t("common.loading")}</p>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
