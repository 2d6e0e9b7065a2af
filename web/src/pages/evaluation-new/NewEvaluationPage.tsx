import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { type FormEvent, useEffect, useState } from "react";
import { api, must } from "../../api/client";
import { useCollections, useLlmStatus, useQuestionSets } from "../../api/queries";
import { JUDGE_KINDS } from "../../api/types";
import { CollectionOptions } from "../../components/CollectionOptions";
import { useLoneFormChoice } from "../../components/lone-choice";
import { QuestionSetOptions } from "../../components/QuestionSetOptions";
import { useI18n } from "../../i18n/i18n";
import {
  type EvaluationForm,
  type FieldErrors,
  fieldErrorsOf,
  requestOf,
  validateForm,
} from "./field-errors";
import { describedByError, FieldError } from "../../components/FieldError";
import { FormSubmit } from "../../components/FormSubmit";
import { JudgeChoices } from "../../components/JudgeChoices";
import { judgeUnavailable } from "./llm-judges";

/** `/evaluations/new`: collection, question set, bot, judges; errors beside their fields. */
export function NewEvaluationPage() {
  const { t } = useI18n();
  const search = useSearch({ from: "/evaluations/new" });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sets = useQuestionSets();
  const judgeLlm = useLlmStatus().data?.roles.judge.configured;
  const [form, setForm] = useState<EvaluationForm>({
    name: "",
    question_set_id: search.question_set ?? "",
    collection_id: "",
    bot: "builtin",
    bot_url: "",
    judges: ["offline"],
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  // A lone question set or collection is chosen for the person.
  const collections = useCollections();
  useLoneFormChoice(sets.data, form, "question_set_id", setForm);
  useLoneFormChoice(collections.data, form, "collection_id", setForm);

  // A set made from a collection suggests that collection.
  useEffect(() => {
    const set = sets.data?.find((s) => s.id === form.question_set_id);
    if (set?.collection_id && !form.collection_id)
      setForm((f) => ({ ...f, collection_id: set.collection_id ?? "" }));
  }, [sets.data, form.question_set_id, form.collection_id]);

  const start = useMutation({
    mutationFn: async () => must(api.POST("/api/v1/evaluations", { body: requestOf(form) })),
    onSuccess: (evaluation) => {
      void queryClient.invalidateQueries({ queryKey: ["evaluations"] });
      void navigate({ to: "/evaluations/$evalId", params: { evalId: evaluation.id } });
    },
    onError: (error) => setErrors(fieldErrorsOf(error)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateForm(form, {
      pickSet: t("new.pickSet"),
      pickJudge: t("new.pickJudge"),
      pickCollection: t("new.pickCollection"),
      badUrl: t("new.badUrl"),
    });
    setErrors(found);
    if (Object.keys(found).length === 0) start.mutate();
  };
  const set = <K extends keyof EvaluationForm>(key: K, value: EvaluationForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const described = (field: keyof FieldErrors) => describedByError(`err-${field}`, errors[field]);

  return (
    <section aria-labelledby="new-title" style={{ maxWidth: 640 }}>
      <h1 id="new-title">{t("new.title")}</h1>
      <form
        onSubmit={submit}
        noValidate
        style={{ display: "flex", flexDirection: "column", gap: "0.9rem" }}
      >
        <label>
          {t("new.name")}
          <input
            name="name"
            value={form.name}
            onChange={(e) => set("name", e.target.value)}
            {...described("name")}
          />
          <FieldError id="err-name" message={errors.name} />
        </label>
        <label>
          {t("new.questionSet")}
          <select
            name="question_set_id"
            value={form.question_set_id}
            onChange={(e) => set("question_set_id", e.target.value)}
            {...described("question_set_id")}
          >
            <QuestionSetOptions />
          </select>
          <FieldError id="err-question_set_id" message={errors.question_set_id} />
        </label>
        <fieldset>
          <legend>{t("new.bot")}</legend>
          <label className="inline">
            <input
              type="radio"
              name="bot"
              checked={form.bot === "builtin"}
              onChange={() => set("bot", "builtin")}
            />
            {t("new.botBuiltin")}
          </label>
          <label className="inline">
            <input
              type="radio"
              name="bot"
              checked={form.bot === "http"}
              onChange={() => set("bot", "http")}
            />
            {t("new.botHttp")}
          </label>
          {form.bot === "http" && (
            <label style={{ width: "100%" }}>
              {t("new.botUrl")}
              <input
                name="bot_url"
                type="url"
                placeholder="http://127.0.0.1:9000/ask"
                value={form.bot_url}
                onChange={(e) => set("bot_url", e.target.value)}
                {...described("bot_url")}
              />
              <FieldError id="err-bot_url" message={errors.bot_url} />
            </label>
          )}
        </fieldset>
        <label>
          {t("new.collection")}
          <select
            name="collection_id"
            value={form.collection_id}
            onChange={(e) => set("collection_id", e.target.value)}
            {...described("collection_id")}
          >
            <CollectionOptions />
          </select>
          <FieldError id="err-collection_id" message={errors.collection_id} />
        </label>
        <JudgeChoices
          type="checkbox"
          name="judges"
          legend={t("new.judges")}
          judges={JUDGE_KINDS}
          labelOf={(judge) => judge}
          isChecked={(judge) => form.judges.includes(judge) && !judgeUnavailable(judge, judgeLlm)}
          onChange={(judge) =>
            set(
              "judges",
              form.judges.includes(judge)
                ? form.judges.filter((j) => j !== judge)
                : [...form.judges, judge],
            )
          }
          unavailable={(judge) => judgeUnavailable(judge, judgeLlm)}
          judgeLlm={judgeLlm}
          needsLlmId="judges-need-llm"
          needsLlm={t("new.needsLlm")}
          errorId="err-judges"
          error={errors.judges}
          help={t("new.judgeModel")}
        />
        <FormSubmit error={errors.form} pending={start.isPending} label={t("new.submit")} />
      </form>
    </section>
  );
}
