-- Issue 28: every user gets a personal workspace with the user's own id, as its owner, and every
-- row the user had moves into it (its workspace_id is the user's id). The next migration makes
-- workspace_id required and drops the old owner column where the workspace replaces it.
INSERT INTO "workspaces" ("id", "name", "personal", "created_at")
SELECT "id", "name", true, "created_at" FROM "users"
ON CONFLICT ("id") DO NOTHING;--> statement-breakpoint
INSERT INTO "workspace_members" ("workspace_id", "user_id", "role", "created_at")
SELECT "id", "id", 'owner', "created_at" FROM "users"
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "api_tokens" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "evaluation_records" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "llm_cache" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "collections" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "documents" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "chunks" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "observational_data" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "question_sets" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "questions" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "evaluations" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "evaluation_results" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "question_generations" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "bots" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "arenas" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "human_labels" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "answer_records" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "answer_keys" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "answer_feedback" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "rejected_traces" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "alert_rules" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "alert_events" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "pending_spans" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "monitors" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "monitor_judgments" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "answer_rollups" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;--> statement-breakpoint
UPDATE "judge_rollups" SET "workspace_id" = "user_id" WHERE "workspace_id" IS NULL;
