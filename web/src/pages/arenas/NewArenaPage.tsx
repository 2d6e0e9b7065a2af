import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { api, must } from "../../api/client";
import { CollectionOptions } from "../../components/CollectionOptions";
import { useLoneFormChoice } from "../../components/lone-choice";
import { QuestionSetOptions } from "../../components/QuestionSetOptions";
import { useLlmStatus, useQuestionSets } from "../../api/queries";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import {
  ARENA_JUDGES,
  type ArenaErrors,
  type ArenaForm,
  type ArenaMessages,
  arenaErrorsOf,
  arenaRequestOf,
  CONTESTANT_KINDS,
  type ContestantField,
  type ContestantForm,
  emptyContestant,
  hasErrors,
  validateArenaForm,
} from "./arena-form";
import { arenasKey, useFinishedRuns } from "./queries";
import { describedByError as described, FieldError } from "../../components/FieldError";
import { FormSubmit } from "../../components/FormSubmit";
import { JudgeChoices } from "../../components/JudgeChoices";

/** A label above its control, tied by id (a label wrapping a select names it with its value too). */
const FIELD = { display: "inline-flex", flexDirection: "column", gap: "0.2rem" } as const;

/** The judges a run's configuration snapshot names (the snapshot is open-ended JSON). */
function judgesOf(config: Record<string, unknown>): string[] {
  const judges = config.judges;
  return Array.isArray(judges) ? judges.filter((j): j is string => typeof j === "string") : [];
}

/** `/arenas/new`: a question set, two or more contestants, the judge; errors beside their field. */
export function NewArenaPage() {
  const { t, say } = useI18n();
  const judgeLlm = useLlmStatus().data?.roles.judge.configured;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const runs = useFinishedRuns();
  const [form, setForm] = useState<ArenaForm>({
    name: "",
    question_set_id: "",
    judge: "offline",
    rounds: 1000,
    contestants: [emptyContestant(1), emptyContestant(2)],
  });
  const [errors, setErrors] = useState<ArenaErrors>({ contestants: [] });
  // A lone question set is chosen for the person.
  const sets = useQuestionSets();
  useLoneFormChoice(sets.data, form, "question_set_id", setForm);
  const messages: ArenaMessages = {
    pickSet: t("arena.pickSet"),
    needTwo: t("arena.needTwo"),
    needName: t("arena.needName"),
    sameName: t("arena.sameName"),
    pickRun: t("arena.pickRun"),
    badUrl: t("arena.badUrl"),
    pickFile: t("arena.pickFile"),
    fileLine: (line, field, message) => t("arena.fileLine", { line, field, message }),
    fileWhole: (message) => t("arena.fileWhole", { message }),
    say,
  };

  const start = useMutation({
    mutationFn: async () =>
      must(
        // The server fills the body's defaults (tolerance, seed, language, no_cache).
        api.POST("/api/v1/arenas", { body: arenaRequestOf(form) as never }),
      ),
    onSuccess: (arena) => {
      void queryClient.invalidateQueries({ queryKey: arenasKey });
      void navigate({ to: "/arenas/$arenaId", params: { arenaId: arena.id } });
    },
    onError: (error) => setErrors(arenaErrorsOf(error, form, messages)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateArenaForm(form, messages);
    setErrors(found);
    if (!hasErrors(found)) start.mutate();
  };
  /** A changed field's error goes: it was about the old value. */
  const clear = (field: Exclude<keyof ArenaErrors, "contestants">) =>
    setErrors((e) => ({ ...e, [field]: undefined }));
  const setContestant = (i: number, change: Partial<ContestantForm>) => {
    setForm((f) => ({
      ...f,
      contestants: f.contestants.map((c, j) => (j === i ? { ...c, ...change } : c)),
    }));
    setErrors((e) => ({
      ...e,
      contestants: e.contestants.map((own, j) => {
        if (j !== i) return own;
        if (change.kind !== undefined) return {};
        const kept = { ...own };
        if (change.name !== undefined) delete kept.name;
        if (change.evaluation_id !== undefined) delete kept.evaluation_id;
        if (change.url !== undefined) delete kept.url;
        if (change.collection_id !== undefined) delete kept.collection_id;
        if (change.fileName !== undefined) delete kept.file;
        return kept;
      }),
    }));
  };
  const readFile = async (i: number, file: File | undefined) => {
    if (!file) return;
    // The reader (with its CSV parser and schema) loads at the first file, not with the page.
    const reader = await import("./answers-file");
    const format = reader.answersFormatOf(file.name);
    if (!format) {
      setContestant(i, {
        fileName: file.name,
        file: null,
        fileIssues: [reader.unknownFormatIssue(file.name)],
      });
      return;
    }
    const oversized = reader.oversizedAnswersIssue(file.size);
    if (oversized) {
      setContestant(i, { fileName: file.name, file: null, fileIssues: [oversized] });
      return;
    }
    // Bytes, not text: a byte that is not UTF-8 is named by its line, as the CLI names it.
    const outcome = reader.parseAnswersFile(new Uint8Array(await file.arrayBuffer()), format);
    setContestant(
      i,
      outcome.ok
        ? { fileName: file.name, file: outcome.file, fileIssues: [] }
        : { fileName: file.name, file: null, fileIssues: outcome.issues },
    );
  };
  const own = (i: number, field: ContestantField) => errors.contestants[i]?.[field];
  const setRuns = (runs.data ?? []).filter((r) => r.question_set_id === form.question_set_id);

  return (
    <section aria-labelledby="arena-new-title" style={{ maxWidth: 760 }}>
      <h1 id="arena-new-title">{t("arena.newTitle")}</h1>
      <p className="muted">{t("arena.newIntro")}</p>
      <form
        onSubmit={submit}
        noValidate
        style={{ display: "flex", flexDirection: "column", gap: "0.9rem" }}
      >
        <div style={FIELD}>
          <label htmlFor="arena-name">{t("arena.name")}</label>
          <input
            id="arena-name"
            name="name"
            value={form.name}
            onChange={(e) => {
              setForm({ ...form, name: e.target.value });
              clear("name");
            }}
            {...described("err-arena-name", errors.name)}
          />
          <FieldError id="err-arena-name" message={errors.name} />
        </div>
        <div style={FIELD}>
          <label htmlFor="arena-set">{t("arena.questionSet")}</label>
          <select
            id="arena-set"
            name="question_set_id"
            value={form.question_set_id}
            onChange={(e) => {
              setForm({ ...form, question_set_id: e.target.value });
              clear("question_set_id");
            }}
            {...described("err-arena-set", errors.question_set_id)}
          >
            <QuestionSetOptions />
          </select>
          <FieldError id="err-arena-set" message={errors.question_set_id} />
        </div>
        {form.contestants.map((c, i) => {
          const n = i + 1;
          const id = (field: string) => `err-c${i}-${field}`;
          return (
            <fieldset key={i} data-testid="contestant">
              <legend>{t("arena.contestant", { n })}</legend>
              <div style={FIELD}>
                <label htmlFor={`c${i}-name`}>{t("arena.contestantName")}</label>
                <input
                  id={`c${i}-name`}
                  value={c.name}
                  onChange={(e) => setContestant(i, { name: e.target.value })}
                  {...described(id("name"), own(i, "name"))}
                />
                <FieldError id={id("name")} message={own(i, "name")} />
              </div>
              <div style={FIELD}>
                <label htmlFor={`c${i}-kind`}>{t("arena.kind")}</label>
                <select
                  id={`c${i}-kind`}
                  value={c.kind}
                  onChange={(e) =>
                    setContestant(i, { kind: e.target.value as ContestantForm["kind"] })
                  }
                >
                  {CONTESTANT_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {t(`arena.kind.${kind}` as MessageKey)}
                    </option>
                  ))}
                </select>
              </div>
              {c.kind === "evaluation" && (
                <div style={FIELD}>
                  <label htmlFor={`c${i}-run`}>{t("arena.run")}</label>
                  <select
                    id={`c${i}-run`}
                    name={`contestants.${i}.evaluation_id`}
                    value={c.evaluation_id}
                    onChange={(e) => setContestant(i, { evaluation_id: e.target.value })}
                    {...described(id("evaluation_id"), own(i, "evaluation_id"))}
                  >
                    <option value="">
                      {form.question_set_id && setRuns.length === 0
                        ? t("arena.noRuns")
                        : t("new.choose")}
                    </option>
                    {setRuns.map((r) => (
                      <option key={r.id} value={r.id}>
                        {r.name} ({judgesOf(r.config).join(", ")})
                      </option>
                    ))}
                  </select>
                  <FieldError id={id("evaluation_id")} message={own(i, "evaluation_id")} />
                </div>
              )}
              {c.kind === "http" && (
                <div style={FIELD}>
                  <label htmlFor={`c${i}-url`}>{t("arena.botUrl")}</label>
                  <input
                    id={`c${i}-url`}
                    type="url"
                    placeholder="http://127.0.0.1:9000/ask"
                    value={c.url}
                    onChange={(e) => setContestant(i, { url: e.target.value })}
                    {...described(id("url"), own(i, "url"))}
                  />
                  <FieldError id={id("url")} message={own(i, "url")} />
                </div>
              )}
              {c.kind === "builtin" && (
                <div style={FIELD}>
                  <label htmlFor={`c${i}-collection`}>{t("arena.collection")}</label>
                  <select
                    id={`c${i}-collection`}
                    value={c.collection_id}
                    onChange={(e) => setContestant(i, { collection_id: e.target.value })}
                    {...described(id("collection_id"), own(i, "collection_id"))}
                  >
                    <CollectionOptions empty={t("arena.setCollection")} />
                  </select>
                  <FieldError id={id("collection_id")} message={own(i, "collection_id")} />
                </div>
              )}
              {c.kind === "answers" && (
                <div style={FIELD}>
                  <label htmlFor={`c${i}-file`}>{t("arena.answersFile")}</label>
                  <input
                    id={`c${i}-file`}
                    type="file"
                    accept=".jsonl,.json,.csv"
                    onChange={(e) => void readFile(i, e.target.files?.[0])}
                    {...described(id("file"), own(i, "file"))}
                  />
                  {c.file && (
                    <span className="muted">
                      {t("arena.answersLoaded", { n: c.file.rows.length, file: c.fileName })}
                    </span>
                  )}
                  <FieldError id={id("file")} message={own(i, "file")} />
                </div>
              )}
              {form.contestants.length > 2 && (
                <button
                  type="button"
                  onClick={() =>
                    setForm((f) => ({ ...f, contestants: f.contestants.filter((_, j) => j !== i) }))
                  }
                >
                  {t("arena.removeContestant", { n })}
                </button>
              )}
            </fieldset>
          );
        })}
        <div>
          <button
            type="button"
            disabled={form.contestants.length >= 12}
            onClick={() =>
              setForm((f) => ({
                ...f,
                contestants: [...f.contestants, emptyContestant(f.contestants.length + 1)],
              }))
            }
          >
            {t("arena.addContestant")}
          </button>
        </div>
        <JudgeChoices
          type="radio"
          name="judge"
          legend={t("arena.judge")}
          judges={ARENA_JUDGES}
          labelOf={(judge) => t(`arena.judge.${judge}` as MessageKey)}
          isChecked={(judge) => form.judge === judge}
          onChange={(judge) => {
            setForm({ ...form, judge });
            clear("judge");
          }}
          // Every arena judge but the offline one asks the judge model.
          unavailable={(judge) => judgeLlm === false && judge !== "offline"}
          judgeLlm={judgeLlm}
          needsLlmId="arena-judges-need-llm"
          needsLlm={t("arena.needsLlm")}
          errorId="err-arena-judge"
          error={errors.judge}
          help={t("arena.judgeHelp")}
        />
        <div style={FIELD}>
          <label htmlFor="arena-rounds">{t("arena.rounds")}</label>
          <input
            id="arena-rounds"
            type="number"
            min={200}
            max={100000}
            step={100}
            value={form.rounds}
            onChange={(e) => {
              setForm({ ...form, rounds: Number(e.target.value) });
              clear("rounds");
            }}
            {...described("err-arena-rounds", errors.rounds)}
          />
          <FieldError id="err-arena-rounds" message={errors.rounds} />
        </div>
        <FormSubmit error={errors.form} pending={start.isPending} label={t("arena.submit")} />
      </form>
    </section>
  );
}
