// Seed 004 §7 (Gate Test): the evaluator pipeline against both storage modes.
import { Readable } from "node:stream";
import { expect, it } from "vitest";
import {
  type EvaluatorInput,
  EvaluatorInputSchema,
  GateConfigSchema,
  gateJsonl,
  runEvaluatorPipeline,
  runEvaluatorPipelineBatch,
} from "../src/gate/index.js";
import {
  evaluationRecordRepo,
  findOrCreateUser,
  getEvaluationRecord,
  listEvaluationRecords,
  queryRows,
} from "../src/store/index.js";
import { sql } from "drizzle-orm";
import { describeEachStore } from "./support/stores.js";

const HIT =
  "The Duchy of Normandy began in 911 when the Viking leader Rollo received lands from " +
  "King Charles the Simple in the Treaty of Saint-Clair-sur-Epte.";

function input(overrides: Partial<EvaluatorInput["generation_output"]> = {}): EvaluatorInput {
  return EvaluatorInputSchema.parse({
    conversation_id: "c1",
    message_id: "m1",
    retrieval_record: { id: "r1", query: "When was the duchy founded?", top_k: 5 },
    retrieval_hits: [{ node_id: "n1", content: HIT, score: 0.82, source: "lexical" }],
    generation_record: { id: "g1", model: "any" },
    generation_output: {
      answer:
        "The Duchy of Normandy was founded in 911, when Rollo received lands from King Charles [n1].",
      citations: [{ node_id: "n1" }],
      ...overrides,
    },
  });
}

const STATUSES = ["pass", "fail", "partial", "skipped"];

describeEachStore("evaluator pipeline (seed 004 §7)", (use) => {
  async function run(evaluatorInput: EvaluatorInput) {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const result = await runEvaluatorPipeline({
      evaluator_repo: evaluationRecordRepo(db),
      input: evaluatorInput,
      ctx: { workspace_id: user.id, trace_id: "trace-1" },
    });
    const record = await getEvaluationRecord(db, user.id, result.id);
    return { result, record, user };
  }

  it("creates a record whose status is in the set, with checks, aligned ids and trace meta", async () => {
    const { result, record } = await run(input());
    expect(record).toBeDefined();
    expect(STATUSES).toContain(record?.status);
    expect(result.status).toBe("pass");
    expect(record?.status).toBe(result.status);
    expect((record?.checks as unknown[] | undefined)?.length).toBeGreaterThan(0);
    expect(record).toMatchObject({
      conversation_id: "c1",
      message_id: "m1",
      retrieval_record_id: "r1",
      generation_record_id: "g1",
      action: "show",
      rule_version: result.rule_version,
      meta: { trace_id: "trace-1", hit_count: 1 },
    });
    expect(typeof (record?.meta as { evaluate_ms?: unknown } | undefined)?.evaluate_ms).toBe(
      "number",
    );
    expect(record?.config).toEqual(GateConfigSchema.parse({}));
    expect(record?.input).toMatchObject({ generation_output: { citations: [{ node_id: "n1" }] } });
  });

  it("keeps citation_coverage in [0,1], including for citations outside the hits", async () => {
    const partial = await run(
      input({
        citations: [{ node_id: "n1" }, { node_id: "n9" }],
        answer: "Founded in 911 by Rollo [n1][n9] under King Charles.",
      }),
    );
    const coverage = (partial.record?.scores as Record<string, number> | undefined)
      ?.citation_coverage;
    expect(coverage).toBe(0.5);
    expect(partial.result.status).toBe("fail");
    for (const value of Object.values((partial.record?.scores ?? {}) as Record<string, number>)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
  });

  it("gives an overall fail when require_citations fails", async () => {
    const { result, record } = await run(
      input({ citations: [], answer: "The duchy was founded in 911 by Rollo." }),
    );
    const check = result.checks.find((c) => c.name === "require_citations");
    expect(check?.status).toBe("fail");
    expect(result.status).toBe("fail");
    expect(record?.status).toBe("fail");
    expect(record?.action).toBe("refuse");
  });

  it("keeps rule_version stable for the same rules and config, and changes it with the config", async () => {
    const a = await run(input());
    const b = await run(
      input({ answer: "Rollo founded the duchy in 911 after a treaty with King Charles [n1]." }),
    );
    expect(b.result.rule_version).toBe(a.result.rule_version);
    const changed = await run({
      ...input(),
      config: { checks: { min_answer_length: { min_chars: 50 } } },
    });
    expect(changed.result.rule_version).not.toBe(a.result.rule_version);
    expect(changed.record?.config).toMatchObject({
      checks: { min_answer_length: { min_chars: 50 } },
    });
  });

  it("writes a batch of records, one per input, in order", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const inputs = ["m1", "m2", "m3"].map((message_id) => ({ ...input(), message_id }));
    const results = await runEvaluatorPipelineBatch({
      evaluator_repo: evaluationRecordRepo(db),
      inputs,
      ctx: { workspace_id: user.id },
    });
    expect(results.map((r) => r.message_id)).toEqual(["m1", "m2", "m3"]);
    const stored = await listEvaluationRecords(db, user.id);
    expect(stored.map((r) => r.message_id).sort()).toEqual(["m1", "m2", "m3"]);
  });

  it("keeps a batch's valid lines when the database refuses one, and names it", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const lines = ["m1", "poison", "m3"].map((message_id) =>
      JSON.stringify({ ...input(), message_id }),
    );
    // A real refusal (SQLSTATE 23514) from whichever database runs, dropped again after.
    await queryRows(
      db,
      sql`alter table evaluation_records
          add constraint test_refuses_poison check (message_id <> 'poison')`,
    );
    try {
      const gated = [];
      for await (const line of gateJsonl({
        source: Readable.from([lines.join("\n")]),
        ctx: { workspace_id: user.id },
        evaluator_repo: evaluationRecordRepo(db),
      })) {
        gated.push(line);
      }
      expect(gated.map((g) => [g.line, g.ok])).toEqual([
        [1, true],
        [2, false],
        [3, true],
      ]);
      const refused = gated[1];
      expect(refused?.ok === false && refused.error).toMatch(
        /^not stored: the database refused the record: .*"test_refuses_poison" \(SQLSTATE 23514\)$/,
      );
      const stored = await listEvaluationRecords(db, user.id);
      expect(stored.map((r) => r.message_id).sort()).toEqual(["m1", "m3"]);
    } finally {
      await queryRows(
        db,
        sql`alter table evaluation_records drop constraint if exists test_refuses_poison`,
      );
    }
  });

  it("throws a write error that is not the lines' fault instead of blaming each line", async () => {
    const { db } = use();
    const user = await findOrCreateUser(db, "alice");
    const lines = ["m1", "m2"].map((message_id) => JSON.stringify({ ...input(), message_id }));
    // The table gone for a moment (SQLSTATE 42P01): no line is at fault, none is retried alone.
    await queryRows(db, sql`alter table evaluation_records rename to evaluation_records_away`);
    try {
      const gated = gateJsonl({
        source: Readable.from([lines.join("\n")]),
        ctx: { workspace_id: user.id },
        evaluator_repo: evaluationRecordRepo(db),
      });
      await expect(gated.next()).rejects.toThrow(/evaluation_records/);
    } finally {
      await queryRows(db, sql`alter table evaluation_records_away rename to evaluation_records`);
    }
    expect(await listEvaluationRecords(db, user.id)).toEqual([]);
  });
});
