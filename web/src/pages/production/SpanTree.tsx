import { useI18n } from "../../i18n/i18n";
import type { ProductionAnswer } from "./queries";
import { spanTree, type SpanNode } from "./span-tree";

/** The trace's spans as a tree, each with when it started and how long it took. */
export function SpanTree({ spans }: { spans: NonNullable<ProductionAnswer["spans"]> }) {
  const { t } = useI18n();
  const roots = spanTree(spans);
  const total = Math.max(1, ...spans.map((s) => s.start_ms + s.duration_ms));
  const render = (nodes: SpanNode[]) => (
    <ul className="span-tree">
      {nodes.map((node) => (
        <li key={node.span.span_id} data-testid="span" data-name={node.span.name}>
          <div>
            <strong>{node.span.name}</strong> <span className="muted">{node.span.kind}</span>
          </div>
          <div
            aria-hidden="true"
            style={{
              marginLeft: `${(node.span.start_ms / total) * 100}%`,
              width: `${Math.max(0.5, (node.span.duration_ms / total) * 100)}%`,
              height: 6,
              background: "var(--accent, #3b6)",
              borderRadius: 3,
            }}
          />
          <div className="muted" style={{ fontSize: "0.85rem" }}>
            {t("mon.spanTiming", {
              start: Math.round(node.span.start_ms),
              duration: Math.round(node.span.duration_ms),
            })}
          </div>
          {node.children.length > 0 && render(node.children)}
        </li>
      ))}
    </ul>
  );
  return (
    <section aria-labelledby="spans-title">
      <h2 id="spans-title">{t("mon.spans")}</h2>
      {render(roots)}
    </section>
  );
}
