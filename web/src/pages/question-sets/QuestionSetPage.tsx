import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCan } from "../../api/session";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import { lazy, Suspense, useState } from "react";
import { api, must } from "../../api/client";
import { questionSetsKey } from "../../api/queries";
import { ErrorNote } from "../../components/ErrorNote";
import { useI18n } from "../../i18n/i18n";
import type { QuestionType } from "../../../../src/evals/questions/rules";
import { QuestionSetEditor, type EditorValue } from "./QuestionSetEditor";
import { savePlan } from "./save-plan";

const VersionsPanel = lazy(() =>
  import("./VersionsPanel").then((m) => ({ default: m.VersionsPanel })),
);

const QuestionSetTrend = lazy(() =>
  import("./QuestionSetTrend").then((m) => ({ default: m.QuestionSetTrend })),
);

const questionsOf = (rows: EditorValue["rows"]) =>
  rows.map((r) => ({
    question_type: r.question_type,
    question_text: r.question_text.trim(),
    ground_truth: r.ground_truth.trim(),
    ...(r.reference_context ? { reference_context: r.reference_context } : {}),
    ...(r.relevant_ids?.length ? { relevant_ids: r.relevant_ids } : {}),
    ...(r.reference_contexts?.length ? { reference_contexts: r.reference_contexts } : {}),
  }));

/** `/evaluations/question-sets/new`. */
export function NewQuestionSetPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (value: EditorValue) =>
      must(
        api.POST("/api/v1/question-sets", {
          body: {
            name: value.name,
            description: value.description || null,
            collection_id: value.collection_id,
            questions: questionsOf(value.rows),
          },
        }),
      ),
    onSuccess: (set) => {
      void queryClient.invalidateQueries({ queryKey: questionSetsKey });
      void navigate({ to: "/evaluations/question-sets/$qsId", params: { qsId: set.id } });
    },
  });
  return (
    <section>
      <h1>{t("qs.new")}</h1>
      <ErrorNote error={create.error} />
      <QuestionSetEditor
        initial={{ name: "", description: "", collection_id: null, rows: [] }}
        saving={create.isPending}
        onSave={(value) => create.mutate(value)}
      />
    </section>
  );
}

/** `/evaluations/question-sets/{qs_id}`: edit the set, see its trend, start a run on it. */
export function QuestionSetPage() {
  const { t } = useI18n();
  const { qsId } = useParams({ from: "/evaluations/question-sets/$qsId" });
  const writes = useCan("write");
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const set = useQuery({
    queryKey: ["question-set", qsId],
    queryFn: async () =>
      must(api.GET("/api/v1/question-sets/{id}", { params: { path: { id: qsId } } })),
  });
  const save = useMutation({
    mutationFn: async (value: EditorValue) => {
      const before = set.data;
      if (!before) return;
      const path = { params: { path: { id: qsId } } };
      await must(
        api.PUT("/api/v1/question-sets/{id}", {
          ...path,
          body: {
            name: value.name,
            description: value.description || null,
            collection_id: value.collection_id,
          },
        }),
      );
      const plan = savePlan(before.questions, value.rows);
      // One save is one call and one new version of the set, all or nothing.
      if (plan.removed.length + plan.updated.length + plan.added.length > 0)
        await must(
          api.POST("/api/v1/question-sets/{id}/changes", {
            ...path,
            body: { removed: plan.removed, updated: plan.updated, added: plan.added },
          }),
        );
    },
    onSuccess: () => setSaved(true),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ["question-set", qsId] });
      void queryClient.invalidateQueries({ queryKey: questionSetsKey });
    },
  });

  if (set.error) return <ErrorNote error={set.error} />;
  if (!set.data) return <p>{t("common.loading")}</p>;
  const data = set.data;
  return (
    <section>
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <h1>{data.name}</h1>
        {writes && (
          <Link className="button primary" to="/evaluations/new" search={{ question_set: data.id }}>
            {t("qs.evaluate")}
          </Link>
        )}
      </div>
      <Suspense fallback={<p>{t("common.loading")}</p>}>
        <QuestionSetTrend questionSetId={data.id} />
      </Suspense>
      <ErrorNote error={save.error} />
      {saved && !save.isPending && !save.error && (
        <p className="notice good" role="status">
          {t("qs.saved")}
        </p>
      )}
      <QuestionSetEditor
        // A new key after each save starts the editor (and its undo history) from the stored set.
        key={data.gmt_updated + data.questions.length}
        initial={{
          name: data.name,
          description: data.description ?? "",
          collection_id: data.collection_id,
          rows: data.questions.map((q) => ({
            id: q.id,
            question_type: q.question_type as QuestionType,
            question_text: q.question_text,
            ground_truth: q.ground_truth,
            reference_context: q.reference_context,
            relevant_ids: q.relevant_ids,
            reference_contexts: q.reference_contexts,
          })),
        }}
        // A role that cannot change the set reads it with saving off.
        saving={save.isPending || !writes}
        onSave={(value) => {
          setSaved(false);
          save.mutate(value);
        }}
      />
      <Suspense fallback={<p>{t("common.loading")}</p>}>
        <VersionsPanel questionSetId={data.id} />
      </Suspense>
    </section>
  );
}
