import { type DragEvent, useId, useState } from "react";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import type { ParsedQuestion, RowIssue } from "./parse-questions";

/**
 * Seed 003's FileUploadParser: a CSV, JSON or JSONL file parsed here in the browser (section 4.1:
 * no upload endpoint). Good files land in the table; a file with any bad row lands nowhere, and
 * each bad row is listed with its line and reason.
 */
export function FileUploadParser({
  onParsed,
}: {
  onParsed: (questions: ParsedQuestion[]) => void;
}) {
  const { t, say } = useI18n();
  const id = useId();
  const [over, setOver] = useState(false);
  const [outcome, setOutcome] = useState<{
    file: string;
    issues?: RowIssue[];
    loaded?: number;
    message?: string;
  }>();

  const read = async (file: File) => {
    // The reader (with its CSV parser and schema) loads at the first file, not with the page.
    const parser = await import("./parse-questions");
    const format = parser.formatOfFile(file.name);
    if (!format) {
      setOutcome({ file: file.name, message: t("upload.unknownFormat", { file: file.name }) });
      return;
    }
    const oversized = parser.oversizedFileIssue(file.size);
    if (oversized) {
      setOutcome({ file: file.name, issues: [oversized] });
      return;
    }
    // Bytes, as the server reads a file: not UTF-8 is named by its line, as there.
    const result = parser.parseQuestionFile(new Uint8Array(await file.arrayBuffer()), format);
    if (!result.ok) {
      setOutcome({ file: file.name, issues: result.issues });
      return;
    }
    onParsed(result.questions);
    setOutcome({ file: file.name, loaded: result.questions.length });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) void read(file);
  };

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t("upload.title")}</h2>
      <div
        className={`dropzone${over ? " over" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <label className="inline" style={{ justifyContent: "center" }}>
          {t("upload.choose")}
          <input
            type="file"
            accept=".csv,.json,.jsonl,.ndjson"
            data-testid="question-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void read(file);
              e.target.value = "";
            }}
          />
        </label>
        <span className="muted"> {t("upload.drop")}</span>
        <p className="muted" style={{ marginBottom: 0 }}>
          {t("upload.hint")}
        </p>
      </div>
      <div aria-live="polite">
        {outcome?.message && (
          <p className="notice bad" role="alert">
            {outcome.message}
          </p>
        )}
        {outcome?.loaded !== undefined && (
          <p className="notice good">
            {t("upload.loaded", { n: outcome.loaded, file: outcome.file })}
          </p>
        )}
        {outcome?.issues && (
          <div className="notice bad" role="alert" data-testid="upload-issues">
            <strong>{t("upload.badRows", { n: outcome.issues.length, file: outcome.file })}</strong>
            <ul className="issues">
              {outcome.issues.map((issue, i) => (
                <li key={i}>
                  {issue.unit === "file" ? (
                    // The file as a whole: no line to name, nor a field.
                    t("upload.wholeFile", { message: say(issue) })
                  ) : (
                    <>
                      {t("upload.line", {
                        unit: t(`upload.unit.${issue.unit}` as MessageKey),
                        line: issue.line,
                      })}
                      : <code>{issue.field}</code> {say(issue)}
                    </>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}
