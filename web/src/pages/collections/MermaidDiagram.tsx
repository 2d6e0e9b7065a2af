import { useEffect, useState } from "react";
import { useI18n } from "../../i18n/i18n";
import { renderMermaid } from "./render-mermaid";

type Drawing = { svg: string } | { error: string } | undefined;

/**
 * One Mermaid diagram, drawn in the page. Its source stays one click away, and is shown in place
 * of the drawing when Mermaid cannot draw it (or cannot be loaded).
 */
export function MermaidDiagram({ name, source }: { name: string; source: string }) {
  const { t } = useI18n();
  const [drawing, setDrawing] = useState<Drawing>();
  useEffect(() => {
    let current = true;
    setDrawing(undefined);
    renderMermaid(source).then(
      (svg) => current && setDrawing({ svg }),
      (error: unknown) =>
        current && setDrawing({ error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [source]);

  const failed = drawing !== undefined && "error" in drawing;
  return (
    <figure className="diagram" data-testid="mermaid-diagram" data-diagram={name}>
      <figcaption>
        <code>{name}</code>
      </figcaption>
      {drawing === undefined && <p className="muted">{t("col.drawing")}</p>}
      {drawing && "svg" in drawing && (
        // Mermaid's own output under securityLevel "strict": labels sanitized, no scripts.
        <div
          className="diagram-svg"
          role="img"
          aria-label={t("col.diagramOf", { name })}
          dangerouslySetInnerHTML={{ __html: drawing.svg }}
        />
      )}
      {failed && (
        <p className="notice bad" role="alert">
          {t("col.drawFailed", { message: drawing.error })}
        </p>
      )}
      <details open={failed}>
        <summary>{t("col.showSource")}</summary>
        <pre className="code" data-testid="mermaid-source">
          {source}
        </pre>
      </details>
    </figure>
  );
}
