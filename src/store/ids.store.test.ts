import { expect, it } from "vitest";
import { describeEachStore } from "../../test/support/stores.js";
import {
  finishArena,
  getArena,
  getArenaForWorker,
  markArena,
  touchPendingArena,
} from "./arenas.js";
import { botCredential, deleteBot, getBot } from "./bots.js";
import {
  chunkEmbeddingPages,
  chunksMissingEmbedding,
  chunkTokenPages,
  chunkTokensOfDocuments,
  deleteCollection,
  documentIds,
  findDocumentsByHashOrSource,
  getChunksWithDocuments,
  getCollection,
  getCollectionVersion,
  listDocuments,
} from "./collections.js";
import {
  listCompareRows,
  listEvaluationsOfQuestionSet,
  queryEvaluationResults,
  queryResultList,
} from "./evaluation-queries.js";
import { getEvaluationRecord } from "./evaluation-records.js";
import {
  deleteEvaluation,
  getEvaluation,
  getEvaluationForWorker,
  listEvaluationResults,
  listReportRows,
  listSummaryRows,
  transitionEvaluation,
} from "./evaluations.js";
import {
  recountEvaluation,
  releaseResult,
  resetResults,
  unfinishedQuestionIds,
} from "./evaluation-items.js";
import {
  calibrationRows,
  deleteHumanLabel,
  getEvaluationResult,
  labelCounts,
  labelNeighbours,
  labelTargets,
  listHumanLabels,
  listResultLabels,
  nextUnlabelledResult,
} from "./human-labels.js";
import { codedMessage } from "../text/index.js";
import { idParam, isUuid } from "./ids.js";
import { listObservations } from "./observations.js";
import {
  claimQuestionGeneration,
  getQuestionGeneration,
  releaseQuestionGeneration,
  setQuestionGenerationProgress,
} from "./question-generations.js";
import {
  addQuestions,
  deleteQuestion,
  deleteQuestionSet,
  getQuestionSet,
  listQuestions,
  QuestionSetNotFoundError,
  updateQuestion,
  updateQuestionSet,
} from "./question-sets.js";
import { getQuestionSetVersion, listQuestionSetVersions } from "./question-set-versions.js";
import { findOrCreateUser } from "./users.js";

const MALFORMED = ["not-a-uuid", "", "1", "00000000-0000-0000-0000-00000000000g", "' or 1=1 --"];

it("tells a UUID's shape from anything else", () => {
  expect(isUuid("0b9e6a4c-3c1f-4c55-9d0e-2a1f5b7c8d9e")).toBe(true);
  expect(isUuid("0B9E6A4C-3C1F-4C55-9D0E-2A1F5B7C8D9E")).toBe(true);
  for (const id of MALFORMED) expect(isUuid(id), id).toBe(false);
  expect(idParam("not-a-uuid").queryChunks).not.toContain("not-a-uuid");
});

describeEachStore("every lookup by a caller's id", (use) => {
  async function all<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
    const rows: T[] = [];
    for await (const page of pages) rows.push(...page);
    return rows;
  }

  it("reads a malformed id as not found, never as a uuid syntax error", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const u = user.id;
    for (const id of MALFORMED) {
      // [what, call, the repository's own not-found answer]
      const lookups: Array<[string, () => Promise<unknown>, unknown]> = [
        ["getBot", () => getBot(db, u, id), undefined],
        ["deleteBot", () => deleteBot(db, u, id), false],
        ["botCredential", () => botCredential(db, u, id, undefined), undefined],
        ["getCollection", () => getCollection(db, u, id), undefined],
        ["deleteCollection", () => deleteCollection(db, u, id), false],
        ["getCollectionVersion", () => getCollectionVersion(db, u, id), undefined],
        ["listDocuments", () => listDocuments(db, u, id), []],
        ["documentIds", () => documentIds(db, u, id), []],
        [
          "findDocumentsByHashOrSource",
          () => findDocumentsByHashOrSource(db, u, id, { hashes: ["h"], sources: [] }),
          [],
        ],
        ["getChunksWithDocuments", () => getChunksWithDocuments(db, u, id, ["d#0"]), []],
        ["chunkTokensOfDocuments", () => chunkTokensOfDocuments(db, u, id, ["d"]), []],
        ["chunkTokenPages", () => all(chunkTokenPages(db, u, id)), []],
        ["chunkEmbeddingPages", () => all(chunkEmbeddingPages(db, u, id, "m")), []],
        ["chunksMissingEmbedding", () => chunksMissingEmbedding(db, u, id, "m", 10), []],
        ["listObservations", () => listObservations(db, u, id), []],
        ["getEvaluationRecord", () => getEvaluationRecord(db, u, id), undefined],
        ["getEvaluation", () => getEvaluation(db, u, id), undefined],
        ["getEvaluationForWorker", () => getEvaluationForWorker(db, id), undefined],
        ["deleteEvaluation", () => deleteEvaluation(db, u, id), false],
        ["listEvaluationResults", () => listEvaluationResults(db, u, id), []],
        ["listSummaryRows", () => listSummaryRows(db, u, id), []],
        ["listReportRows", () => listReportRows(db, u, id), []],
        ["unfinishedQuestionIds", () => unfinishedQuestionIds(db, id), []],
        ["releaseResult", () => releaseResult(db, id, "q", "j"), undefined],
        ["resetResults", () => resetResults(db, id, ["SCORED"]), 0],
        ["recountEvaluation", () => recountEvaluation(db, id), undefined],
        [
          "transitionEvaluation",
          () => transitionEvaluation(db, id, ["PENDING"], "RUNNING", { workspaceId: u }),
          undefined,
        ],
        [
          "queryEvaluationResults",
          () => queryEvaluationResults(db, u, id, {}),
          { rows: [], total: 0 },
        ],
        ["queryResultList", () => queryResultList(db, u, id, {}, { limit: 10 }), undefined],
        ["listCompareRows", () => listCompareRows(db, u, id), []],
        ["listEvaluationsOfQuestionSet", () => listEvaluationsOfQuestionSet(db, u, id), []],
        ["getQuestionSet", () => getQuestionSet(db, u, id), undefined],
        ["updateQuestionSet", () => updateQuestionSet(db, u, id, { name: "x" }), undefined],
        ["deleteQuestionSet", () => deleteQuestionSet(db, u, id), false],
        ["listQuestions", () => listQuestions(db, u, id), []],
        [
          "updateQuestion",
          () => updateQuestion(db, { workspaceId: u, userId: u }, id, { question_text: "x" }),
          undefined,
        ],
        ["deleteQuestion", () => deleteQuestion(db, { workspaceId: u, userId: u }, id), false],
        ["listQuestionSetVersions", () => listQuestionSetVersions(db, u, id), []],
        ["getQuestionSetVersion", () => getQuestionSetVersion(db, u, id, 1), undefined],
        ["getQuestionGeneration", () => getQuestionGeneration(db, u, id), undefined],
        ["claimQuestionGeneration", () => claimQuestionGeneration(db, id), undefined],
        [
          "setQuestionGenerationProgress",
          () => setQuestionGenerationProgress(db, id, 5),
          undefined,
        ],
        ["releaseQuestionGeneration", () => releaseQuestionGeneration(db, id), undefined],
        ["getArena", () => getArena(db, u, id), undefined],
        ["getArenaForWorker", () => getArenaForWorker(db, id), undefined],
        ["markArena", () => markArena(db, id, "RUNNING"), undefined],
        ["touchPendingArena", () => touchPendingArena(db, id, new Date()), undefined],
        [
          "finishArena",
          () =>
            finishArena(db, id, { status: "FAILED", reason: codedMessage("plain", { text: "x" }) }),
          undefined,
        ],
        ["listHumanLabels", () => listHumanLabels(db, u, id), []],
        ["listResultLabels", () => listResultLabels(db, u, id, id), []],
        ["deleteHumanLabel", () => deleteHumanLabel(db, u, id, id, "1-5"), false],
        ["labelTargets", () => labelTargets(db, u, id), []],
        [
          "nextUnlabelledResult",
          () => nextUnlabelledResult(db, u, id, "1-5"),
          { resultId: null, labelled: 0, unlabelled: 0 },
        ],
        ["getEvaluationResult", () => getEvaluationResult(db, u, id, id), undefined],
        ["calibrationRows", () => calibrationRows(db, u, id, "rubric", "1-10"), []],
        [
          "calibrationRows details",
          () => calibrationRows(db, u, id, "rubric", "1-10", { details: true }),
          [],
        ],
        ["labelCounts", () => labelCounts(db, u, id), {}],
        [
          "labelNeighbours",
          () => labelNeighbours(db, u, id, 0, "1-5"),
          { previousId: null, nextId: null, index: 0, total: 0, labelled: 0 },
        ],
      ];
      for (const [what, call, notFound] of lookups) {
        await expect(call(), `${what}(${JSON.stringify(id)})`).resolves.toEqual(notFound);
      }
      await expect(
        addQuestions(db, { workspaceId: u, userId: u }, id, [
          { question_type: "FACTUAL", question_text: "q", ground_truth: "", question_key: "q" },
        ]),
      ).rejects.toThrow(QuestionSetNotFoundError);
    }
  });
});
