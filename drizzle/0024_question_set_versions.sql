CREATE TABLE "question_set_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"question_set_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"change" text NOT NULL,
	"restored_from" integer,
	"question_count" integer NOT NULL,
	"questions" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "arenas" ADD COLUMN "question_set_version_id" uuid;--> statement-breakpoint
ALTER TABLE "arenas" ADD COLUMN "question_set_version" integer;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "question_set_version_id" uuid;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "question_set_version" integer;--> statement-breakpoint
ALTER TABLE "question_set_versions" ADD CONSTRAINT "question_set_versions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_set_versions" ADD CONSTRAINT "question_set_versions_question_set_id_question_sets_id_fk" FOREIGN KEY ("question_set_id") REFERENCES "public"."question_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_set_versions" ADD CONSTRAINT "question_set_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "question_set_versions_number_idx" ON "question_set_versions" USING btree ("question_set_id","number");--> statement-breakpoint
-- Issue 28 §3: every existing set gets a version 1 holding its current questions, made by its creator.
INSERT INTO "question_set_versions" ("workspace_id", "question_set_id", "number", "created_by", "created_at", "change", "question_count", "questions")
SELECT s."workspace_id", s."id", 1, s."user_id", s."gmt_updated", 'created',
  (SELECT count(*)::int FROM "questions" q WHERE q."question_set_id" = s."id" AND q."gmt_deleted" IS NULL),
  coalesce((SELECT jsonb_agg(jsonb_build_object(
      'id', q."id", 'question_type', q."question_type", 'question_text', q."question_text",
      'ground_truth', q."ground_truth", 'ground_truths', q."ground_truths",
      'reference_context', q."reference_context", 'relevant_ids', q."relevant_ids",
      'reference_contexts', q."reference_contexts") ORDER BY q."position", q."id")
    FROM "questions" q WHERE q."question_set_id" = s."id" AND q."gmt_deleted" IS NULL), '[]'::jsonb)
FROM "question_sets" s;
