import { useId, useState } from "react";
import { useI18n } from "../i18n/i18n";
import { splitCitations } from "./citations";

interface CitedSource {
  node_id: string;
  content: string;
  title?: string;
}

/**
 * An answer whose citation markers are buttons: each opens the passage it cites below the answer.
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
  return (
    <>
      <p style={{ margin: 0 }}>
        {splitCitations(answer, known).map((segment, i) =>
          "text" in segment ? (
            <span key={i}>{segment.text}</span>
          ) : (
            <button
              key={i}
              type="button"
              className="citation"
              aria-expanded={open === segment.citation}
              aria-controls={passageId}
              onClick={() => setOpen(open === segment.citation ? undefined : segment.citation)}
            >
              {segment.citation}
            </button>
          ),
        )}
      </p>
      <div id={passageId} aria-live="polite">
        {open !== undefined && (
          <div className="passage" data-testid="passage">
            <strong>{t("card.passage", { id: open })}</strong>
            {passage?.title && <div className="muted">{passage.title}</div>}
            <p style={{ whiteSpace: "pre-wrap", margin: "0.25rem 0 0" }}>
              {passage ? passage.content : t("card.citationNotFound")}
            </p>
          </div>
        )}
      </div>
    </>
  );
}
