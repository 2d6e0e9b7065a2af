import type { ReactNode } from "react";
import { useI18n } from "../i18n/i18n";
import { describedByError, FieldError } from "./FieldError";

/**
 * A form's judges, one input each (radios for one judge, checkboxes for several). A judge that
 * needs the judge model is disabled when the server has none, with the reason beside it.
 */
export function JudgeChoices<J extends string>({
  type,
  name,
  legend,
  judges,
  labelOf,
  isChecked,
  onChange,
  unavailable,
  judgeLlm,
  needsLlmId,
  needsLlm,
  errorId,
  error,
  help,
}: {
  type: "radio" | "checkbox";
  name: string;
  legend: string;
  judges: readonly J[];
  labelOf: (judge: J) => ReactNode;
  isChecked: (judge: J) => boolean;
  onChange: (judge: J) => void;
  unavailable: (judge: J) => boolean;
  /** Whether the server has a judge model; undefined while that is not known. */
  judgeLlm: boolean | undefined;
  needsLlmId: string;
  needsLlm: string;
  errorId: string;
  error: string | undefined;
  help: string;
}) {
  const { t } = useI18n();
  return (
    <fieldset {...describedByError(errorId, error)}>
      <legend>{legend}</legend>
      {judges.map((judge) => {
        const off = unavailable(judge);
        return (
          <label key={judge} className="inline">
            <input
              type={type}
              name={name}
              value={judge}
              disabled={off}
              aria-describedby={off ? needsLlmId : undefined}
              checked={isChecked(judge)}
              onChange={() => onChange(judge)}
            />
            {labelOf(judge)}
            {off && <span className="muted"> {t("new.needsLlmShort")}</span>}
          </label>
        );
      })}
      {judgeLlm === false && (
        <p id={needsLlmId} className="muted" style={{ margin: "0.25rem 0 0" }}>
          {needsLlm}
        </p>
      )}
      <FieldError id={errorId} message={error} />
      <p className="muted" style={{ margin: "0.25rem 0 0" }}>
        {help}
      </p>
    </fieldset>
  );
}
