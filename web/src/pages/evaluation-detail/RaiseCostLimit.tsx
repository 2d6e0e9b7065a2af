import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, must } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { formatUsd } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { evaluationsKey } from "../evaluation-list/queries";
import { evaluationKey } from "./queries";

/** A run paused at its cost limit goes on under a higher limit, or none (`null`). */
function useResumeWithLimit(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (limit: number | null) =>
      must(
        api.POST("/api/v1/evaluations/{id}/resume", {
          params: { path: { id } },
          body: { max_cost_usd: limit },
        }),
      ),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: evaluationKey(id) });
      void queryClient.invalidateQueries({ queryKey: evaluationsKey });
    },
  });
}

/**
 * Under the "paused: cost limit reached" notice: a new limit (twice the old one to start with),
 * then resume; or resume with no limit at all.
 */
export function RaiseCostLimit({
  evaluationId,
  limit,
  spent,
}: {
  evaluationId: string;
  limit: number;
  spent: number;
}) {
  const { t } = useI18n();
  const resume = useResumeWithLimit(evaluationId);
  const [text, setText] = useState(() => String(Number((limit * 2).toPrecision(6))));
  const value = Number(text);
  const tooLow = !(Number.isFinite(value) && value > spent && value > 0);
  return (
    <form
      className="row"
      style={{ alignItems: "end", marginBottom: "0.75rem" }}
      data-testid="raise-cost-limit"
      onSubmit={(event) => {
        event.preventDefault();
        if (!tooLow) resume.mutate(value);
      }}
    >
      <label>
        {t("cost.newLimit")}
        <input
          type="number"
          min={0}
          step="any"
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={tooLow}
          data-testid="new-cost-limit"
        />
      </label>
      <button type="submit" className="button primary" disabled={tooLow || resume.isPending}>
        {t("cost.raiseAndResume")}
      </button>
      <button type="button" disabled={resume.isPending} onClick={() => resume.mutate(null)}>
        {t("cost.resumeWithoutLimit")}
      </button>
      {tooLow && text !== "" && (
        <span className="error-text" role="status">
          {t("cost.limitTooLow", { spent: formatUsd(spent) })}
        </span>
      )}
      <ErrorNote error={resume.error} />
    </form>
  );
}
