import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { ApiError, api, must } from "../api/client";
import { questionSetsKey, useQuestionSets } from "../api/queries";
import { useI18n } from "../i18n/i18n";
import { ErrorNote } from "./ErrorNote";
import { QuestionSetOptions } from "./QuestionSetOptions";

/**
 * "Add to question set": a question (a production answer's, a run result's) becomes a question of
 * a chosen set, appended to its latest version, with an expected answer the person edits (it starts
 * as `expected`, to correct).
 */
export function AddToQuestionSet({
  question,
  expected,
}: {
  question: string | null | undefined;
  expected: string;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const sets = useQuestionSets();
  const [setId, setSetId] = useState("");
  const [groundTruth, setGroundTruth] = useState(expected);
  const add = useMutation({
    mutationFn: () =>
      must(
        api.POST("/api/v1/question-sets/{id}/questions", {
          params: { path: { id: setId } },
          body: {
            questions: [
              {
                question_type: "USER_DEFINED",
                question_text: question ?? "",
                ground_truth: groundTruth.trim(),
              },
            ],
          },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: questionSetsKey });
      // The set has a new version: its page and versions panel read it afresh.
      void queryClient.invalidateQueries({ queryKey: ["question-set", setId] });
    },
  });

  if (!question) return <p className="muted">{t("prod.noQuestion")}</p>;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (setId) add.mutate();
  };
  const duplicate = ApiError.isInstance(add.error) && add.error.status === 409;
  const setName = sets.data?.find((s) => s.id === setId)?.name ?? "";

  return (
    <form onSubmit={submit} className="stack-form">
      <p className="muted" style={{ margin: 0 }}>
        {t("prod.addToSetIntro")}
      </p>
      <label className="field">
        {t("prod.set")}
        <select
          value={setId}
          required
          onChange={(e) => {
            setSetId(e.target.value);
            add.reset();
          }}
        >
          <QuestionSetOptions />
        </select>
      </label>
      <label className="field">
        {t("prod.groundTruth")}
        <textarea value={groundTruth} rows={4} onChange={(e) => setGroundTruth(e.target.value)} />
      </label>
      {duplicate ? (
        <p className="notice bad" role="alert">
          {t("prod.alreadyInSet")}
        </p>
      ) : (
        <ErrorNote error={add.error} />
      )}
      <div>
        <button type="submit" className="primary" disabled={!setId || add.isPending}>
          {t("prod.addToSetSubmit")}
        </button>
      </div>
      {add.isSuccess && (
        <p role="status">
          {t("prod.addedToSet", { name: setName })}{" "}
          <Link to="/evaluations/question-sets/$qsId" params={{ qsId: setId }}>
            {t("prod.openSet")}
          </Link>
        </p>
      )}
    </form>
  );
}
