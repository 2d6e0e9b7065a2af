import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { ApiError } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { FieldError } from "../../components/FieldError";
import { Modal } from "../../components/Modal";
import { useI18n } from "../../i18n/i18n";
import { createQueue, type QueueRequest, queuesKey, useReviewers } from "./queries";
import { RESULT_CHOICES, type ResultChoice, runFilterOf } from "./run-filter";

type Source = QueueRequest["source"];
type CriterionRow = { name: string; scale: "1-5" | "1-10" | "pass_fail"; description: string };

/** The server's message for a field it refused (its 400 names each in `issues`). */
function issueAt(error: unknown, field: string): string | undefined {
  if (!ApiError.isInstance(error)) return undefined;
  const issues = (error.body as { issues?: { path: string; message: string }[] } | undefined)
    ?.issues;
  return issues?.find((issue) => issue.path === field || issue.path.startsWith(`${field}.`))
    ?.message;
}

/**
 * "Send to labelling": a button that opens a form making an annotation queue of a run's results,
 * an arena's pairs or production answers, assigned to reviewers; then opens the queue.
 */
export function SendToLabelling({ source, name }: { source: Source; name: string }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        {t("queue.send")}
      </button>
      <Modal open={open} title={t("queue.sendTitle")} onClose={() => setOpen(false)}>
        <SendForm source={source} name={name} onCancel={() => setOpen(false)} />
      </Modal>
    </>
  );
}

function SendForm({
  source,
  name,
  onCancel,
}: {
  source: Source;
  name: string;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reviewers = useReviewers(true);
  const [queueName, setQueueName] = useState(name.slice(0, 200));
  const [chosen, setChosen] = useState<string[]>([]);
  const [perItem, setPerItem] = useState(1);
  const [rubric, setRubric] = useState<"judge_scale" | "pass_fail" | "criteria">(
    source.kind === "production" ? "pass_fail" : "judge_scale",
  );
  const [criteria, setCriteria] = useState<CriterionRow[]>([
    { name: "", scale: "1-5", description: "" },
  ]);
  const [sample, setSample] = useState("");
  const [seed, setSeed] = useState("1");
  const [which, setWhich] = useState<ResultChoice>("scored");
  const make = useMutation({
    mutationFn: () => {
      const size = Number(sample);
      const filtered =
        source.kind === "run" && !source.result_ids
          ? { ...source, filter: runFilterOf(which) }
          : source;
      const sampled =
        sample.trim() !== "" && filtered.kind !== "production"
          ? { ...filtered, sample: { size, seed: Number(seed) || 0 } }
          : filtered;
      return createQueue({
        name: queueName.trim(),
        source: sampled,
        ...(source.kind === "arena"
          ? {}
          : {
              rubric:
                rubric === "criteria"
                  ? { kind: rubric, criteria: criteria.map((c) => ({ ...c, name: c.name.trim() })) }
                  : { kind: rubric },
            }),
        reviewers: chosen,
        reviewers_per_item: perItem,
      });
    },
    onSuccess: async (queue) => {
      await queryClient.invalidateQueries({ queryKey: queuesKey });
      await navigate({ to: "/queues/$queueId", params: { queueId: queue.id } });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    make.mutate();
  };
  const toggle = (id: string) =>
    setChosen((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));

  return (
    <form className="stack-form" onSubmit={submit}>
      <p className="muted" style={{ margin: 0 }}>
        {t(`queue.sendIntro.${source.kind}`)}
      </p>
      <label className="field">
        {t("queue.name")}
        <input
          value={queueName}
          required
          maxLength={200}
          onChange={(e) => setQueueName(e.target.value)}
        />
        <FieldError id="queue-name-error" message={issueAt(make.error, "name")} />
      </label>
      <fieldset>
        <legend>{t("queue.reviewers")}</legend>
        {reviewers.isPending && <p>{t("common.loading")}</p>}
        <ErrorNote error={reviewers.error} />
        {(reviewers.data ?? []).map((member) => (
          <label key={member.user_id} className="inline">
            <input
              type="checkbox"
              checked={chosen.includes(member.user_id)}
              onChange={() => toggle(member.user_id)}
            />{" "}
            {member.name} <span className="muted">({t(`queue.role.${member.role}`)})</span>
          </label>
        ))}
        <FieldError id="queue-reviewers-error" message={issueAt(make.error, "reviewers")} />
      </fieldset>
      <label className="field">
        {t("queue.perItem")}
        <input
          type="number"
          min={1}
          max={5}
          value={perItem}
          onChange={(e) => setPerItem(Number(e.target.value))}
        />
        <FieldError
          id="queue-reviewers_per_item-error"
          message={issueAt(make.error, "reviewers_per_item")}
        />
      </label>
      {source.kind !== "arena" && (
        <label className="field">
          {t("queue.rubric")}
          <select value={rubric} onChange={(e) => setRubric(e.target.value as typeof rubric)}>
            {source.kind === "run" && (
              <option value="judge_scale">{t("queue.rubric.judge_scale")}</option>
            )}
            <option value="pass_fail">{t("queue.rubric.pass_fail")}</option>
            <option value="criteria">{t("queue.rubric.criteria")}</option>
          </select>
        </label>
      )}
      {source.kind !== "arena" && rubric === "criteria" && (
        <CriteriaEditor criteria={criteria} onChange={setCriteria} error={make.error} />
      )}
      {source.kind === "run" && !source.result_ids && (
        <label className="field">
          {t("queue.which")}
          <select value={which} onChange={(e) => setWhich(e.target.value as ResultChoice)}>
            {RESULT_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {t(`queue.which.${choice}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      {source.kind !== "production" && (
        <div className="row">
          <label className="field">
            {t("queue.sample")}
            <input
              type="number"
              min={1}
              placeholder={t("queue.sampleAll")}
              value={sample}
              onChange={(e) => setSample(e.target.value)}
            />
          </label>
          {sample.trim() !== "" && (
            <label className="field">
              {t("queue.seed")}
              <input type="number" min={0} value={seed} onChange={(e) => setSeed(e.target.value)} />
            </label>
          )}
        </div>
      )}
      <ErrorNote error={make.error} />
      <div className="row">
        <button
          type="submit"
          className="button primary"
          disabled={make.isPending || chosen.length === 0}
        >
          {make.isPending ? t("queue.making") : t("queue.make")}
        </button>
        <button type="button" onClick={onCancel}>
          {t("common.cancel")}
        </button>
      </div>
    </form>
  );
}

function CriteriaEditor({
  criteria,
  onChange,
  error,
}: {
  criteria: CriterionRow[];
  onChange: (next: CriterionRow[]) => void;
  error: unknown;
}) {
  const { t } = useI18n();
  const set = (i: number, change: Partial<CriterionRow>) =>
    onChange(criteria.map((c, j) => (j === i ? { ...c, ...change } : c)));
  return (
    <fieldset>
      <legend>{t("queue.rubric.criteria")}</legend>
      {criteria.map((criterion, i) => (
        <div key={i} className="row" style={{ alignItems: "end" }}>
          <label className="field">
            {t("queue.criterionName", { n: i + 1 })}
            <input
              value={criterion.name}
              required
              maxLength={60}
              onChange={(e) => set(i, { name: e.target.value })}
            />
            <FieldError
              id={`criterion-${i}-name-error`}
              message={issueAt(error, `rubric.criteria.${i}.name`)}
            />
          </label>
          <label className="field">
            {t("queue.criterionScale", { n: i + 1 })}
            <select
              value={criterion.scale}
              onChange={(e) => set(i, { scale: e.target.value as CriterionRow["scale"] })}
            >
              <option value="1-5">1–5</option>
              <option value="1-10">1–10</option>
              <option value="pass_fail">{t("queue.rubric.pass_fail")}</option>
            </select>
          </label>
          <label className="field">
            {t("queue.criterionDescription", { n: i + 1 })}
            <input
              value={criterion.description}
              maxLength={2000}
              onChange={(e) => set(i, { description: e.target.value })}
            />
          </label>
          {criteria.length > 1 && (
            <button type="button" onClick={() => onChange(criteria.filter((_, j) => j !== i))}>
              {t("queue.removeCriterion", { n: i + 1 })}
            </button>
          )}
        </div>
      ))}
      {criteria.length < 10 && (
        <button
          type="button"
          onClick={() => onChange([...criteria, { name: "", scale: "1-5", description: "" }])}
        >
          {t("queue.addCriterion")}
        </button>
      )}
    </fieldset>
  );
}
