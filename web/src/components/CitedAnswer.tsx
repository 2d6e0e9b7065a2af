import { useId, useState } from "react";
import { useI18n } from "../i18n/i18n";
import { citationNumbers, splitCitations } from "./citations";

interface CitedSource {
  node_id: string;
  content: string;
  title?: string;
  source?: string;
}

/**
 * An answer whose citation markers are numbered chips ([1] [2], the chunk's title or source on
 * hover, never its internal id): each opens the passage it cites below the answer.
 * `citations` are ids the answer may cite beyond its sources (a cited id with no source says so).
 */
export function CitedAnswer({
  answer,
  sources,
  citations = [],
}: {
  answer: string;
  sources: readonly CitedSource[];
  citations?: readonly string[];
}) {
  const { t } = useI18n();
  const passageId = useId();
  const [open, setOpen] = useState<string>();
  const known = new Set([...sources.map((s) => s.node_id), ...citations]);
  const passage = open === undefined ? undefined : sources.find((s) => s.node_id === open);
  const segments = splitCitations(answer, known);
  const numberOf = citationNumbers(segments, sources);
  const label = (id: string) => `[${numberOf(id)}]`;
  return (
    <>
      <p style={{ margin: 0 }}>
        {segments.map((segment, i) => {
          if ("text" in segment) return <span key={i}>{segment.text}</span>;
          const source = sources.find((s) => s.node_id === segment.citation);
          const name = source?.title || source?.source || t("card.citationNotFound");
          return (
            <button
              key={i}
              type="button"
              className="citation"
              title={t("card.citationTitle", {
                n: numberOf(segment.citation),
                title: name,
              })}
              aria-expanded={open === segment.citation}
              aria-controls={passageId}
              onClick={() => setOpen(open === segment.citation ? undefined : segment.citation)}
            >
              {label(segment.citation)}
            </button>
          );
        })}
      </p>
      <div id={passageId} aria-live="polite">
        {open !== undefined && (
          <div className="passage" data-testid="passage">
            <strong>{t("card.passage", { id: label(open) })}</strong>
            {(passage?.title || passage?.source) && (
              <div className="muted">{passage.title || passage.source}</div>
            )}
            <p style={{ whiteSpace: "pre-wrap", margin: "0.25rem 0 0" }}>
              {passage ? passage.content : t("card.citationNotFound")}
            </p>
          </div>
        )}
      </div>
    </>
  );
}
