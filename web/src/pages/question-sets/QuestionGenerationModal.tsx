import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, must } from "../../api/client";
import { useCollections } from "../../api/queries";
import { CollectionOptions } from "../../components/CollectionOptions";
import { useLoneChoice } from "../../components/lone-choice";
import { ErrorNote } from "../../components/ErrorNote";
import { Modal } from "../../components/Modal";
import { ProgressBar } from "../../components/ProgressBar";
import { useI18n } from "../../i18n/i18n";
import { questionTypeName } from "../../i18n/name-strings";
import type { ParsedQuestion } from "./parse-questions";

const GENERATED_TYPES = ["FACTUAL", "INFERENTIAL"] as const;

/**
 * Seed 003's QuestionGenerationModal: choose the collection, count, types, language and
 * (optionally) the prompt; follow the generation job; put its preview into the table to edit.
 */
export function QuestionGenerationModal({
  open,
  onClose,
  onGenerated,
  defaultCollection,
}: {
  open: boolean;
  onClose: () => void;
  onGenerated: (questions: ParsedQuestion[], collectionId: string) => void;
  defaultCollection?: string;
}) {
  const { t, say } = useI18n();
  const [collectionId, setCollectionId] = useState(defaultCollection ?? "");
  const [count, setCount] = useState(10);
  const [types, setTypes] = useState<(typeof GENERATED_TYPES)[number][]>([...GENERATED_TYPES]);
  const [language, setLanguage] = useState<"auto" | "en" | "zh">("auto");
  const [prompt, setPrompt] = useState("");
  const [generationId, setGenerationId] = useState<string>();
  // A lone collection is chosen for the person.
  const collections = useCollections();
  useLoneChoice(
    collections.data?.map((c) => c.id),
    collectionId,
    setCollectionId,
  );

  const start = useMutation({
    mutationFn: async () =>
      must(
        api.POST("/api/v1/question-sets/generate", {
          body: {
            collection_id: collectionId,
            n: count,
            types,
            language,
            ...(prompt.trim() ? { prompt } : {}),
          },
        }),
      ),
    onSuccess: (generation) => setGenerationId(generation.id),
  });
  const generation = useQuery({
    queryKey: ["generation", generationId],
    enabled: generationId !== undefined,
    queryFn: async () =>
      must(
        api.GET("/api/v1/question-sets/generations/{id}", {
          params: { path: { id: generationId ?? "" } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data && ["COMPLETED", "FAILED"].includes(query.state.data.status) ? false : 700,
  });
  const done = generation.data?.status === "COMPLETED" ? generation.data : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setGenerationId(undefined);
    start.mutate();
  };
  const accept = () => {
    if (!done?.questions) return;
    onGenerated(
      done.questions.map((q) => ({
        question_type: q.question_type,
        question_text: q.question_text,
        ground_truth: q.ground_truth,
        reference_context: q.reference_context ?? null,
      })),
      collectionId,
    );
    setGenerationId(undefined);
    onClose();
  };

  return (
    <Modal open={open} title={t("gen.title")} onClose={onClose}>
      <form onSubmit={submit} style={{ display: "flex", flexDirection: "column", gap: "0.7rem" }}>
        <label>
          {t("gen.collection")}
          <select required value={collectionId} onChange={(e) => setCollectionId(e.target.value)}>
            <CollectionOptions />
          </select>
        </label>
        <div className="row">
          <label>
            {t("gen.count")}
            <input
              type="number"
              min={1}
              max={200}
              value={count}
              onChange={(e) => setCount(Number(e.target.value))}
              style={{ width: "6em" }}
            />
          </label>
          <label>
            {t("gen.language")}
            <select
              value={language}
              onChange={(e) => setLanguage(e.target.value as typeof language)}
            >
              <option value="auto">{t("gen.languageAuto")}</option>
              <option value="en">English</option>
              <option value="zh">中文</option>
            </select>
          </label>
          <fieldset>
            <legend>{t("gen.types")}</legend>
            {GENERATED_TYPES.map((type) => (
              <label key={type} className="inline">
                <input
                  type="checkbox"
                  checked={types.includes(type)}
                  onChange={() =>
                    setTypes(
                      types.includes(type) ? types.filter((x) => x !== type) : [...types, type],
                    )
                  }
                />
                {type}
              </label>
            ))}
          </fieldset>
        </div>
        <label>
          {t("gen.prompt")}
          <textarea
            rows={3}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            placeholder="… {document_content} …"
          />
        </label>
        <ErrorNote error={start.error ?? generation.error} />
        {generation.data && !done && generation.data.status !== "FAILED" && (
          <div aria-live="polite">
            <ProgressBar
              percent={generation.data.progress}
              label={t("gen.progress", { progress: generation.data.progress })}
            />
            <span>{t("gen.progress", { progress: generation.data.progress })}</span>
          </div>
        )}
        {generation.data?.status === "FAILED" && (
          <p className="notice bad" role="alert">
            {t("gen.failed", {
              error: generation.data.error_message ? say(generation.data.error_message) : "",
            })}
          </p>
        )}
        {done && (
          <div aria-live="polite" data-testid="generation-preview">
            {done.heuristic && <p className="notice">{t("gen.heuristic")}</p>}
            {done.warnings
              // gen.heuristic above says it already.
              .filter((w) => w.code !== "generation.heuristic")
              .map((w, i) => (
                <p key={i} className="notice">
                  {say(w)}
                </p>
              ))}
            {/* What "Add" puts into the table: each question with its type and ground truth. */}
            <div className="table-scroll" style={{ maxHeight: 260, overflowY: "auto" }}>
              <table data-testid="generation-preview-table">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">{t("card.question")}</th>
                    <th scope="col">{t("gen.previewType")}</th>
                    <th scope="col">{t("card.groundTruth")}</th>
                  </tr>
                </thead>
                <tbody>
                  {(done.questions ?? []).map((q, i) => (
                    <tr key={i} data-testid="generation-preview-row">
                      <td>{i + 1}</td>
                      <td>{q.question_text}</td>
                      <td>{questionTypeName(q.question_type, t)}</td>
                      <td>{q.ground_truth || "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )}
        <div className="row">
          {done ? (
            <button type="button" className="primary" onClick={accept}>
              {t("gen.addToTable", { n: done.questions?.length ?? 0 })}
            </button>
          ) : (
            <button
              type="submit"
              className="primary"
              disabled={!collectionId || types.length === 0 || start.isPending}
            >
              {t("gen.start")}
            </button>
          )}
          <button type="button" onClick={onClose}>
            {t("common.close")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
