import { splitCitations } from "../../components/citations";
import { useI18n } from "../../i18n/i18n";
import { type Hit, hitAnchor } from "./answer-parts";

/** The answer's text with each citation marker a link to the hit it names. */
export function LinkedAnswer({
  answer,
  hits,
  cited,
}: {
  answer: string;
  hits: readonly Hit[];
  cited: readonly string[];
}) {
  const { t } = useI18n();
  const index = new Map(hits.map((hit, i) => [hit.node_id, i]));
  const known = new Set([...index.keys(), ...cited]);
  return (
    <p style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-testid="answer-text">
      {splitCitations(answer, known).map((segment, i) => {
        if ("text" in segment) return <span key={i}>{segment.text}</span>;
        const at = index.get(segment.citation);
        // A cited id no hit carries stays a plain marker: there is nothing to link to.
        return at === undefined ? (
          <span key={i} className="citation">
            {segment.citation}
          </span>
        ) : (
          <a
            key={i}
            className="citation"
            href={`#${hitAnchor(at)}`}
            aria-label={t("prod.citationLabel", { id: segment.citation })}
          >
            {segment.citation}
          </a>
        );
      })}
    </p>
  );
}
