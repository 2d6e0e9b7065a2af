ALTER TABLE "alert_events" DROP CONSTRAINT "alert_events_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "alert_rules" DROP CONSTRAINT "alert_rules_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "answer_feedback" DROP CONSTRAINT "answer_feedback_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "answer_keys" DROP CONSTRAINT "answer_keys_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "answer_records" DROP CONSTRAINT "answer_records_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "answer_rollups" DROP CONSTRAINT "answer_rollups_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "arenas" DROP CONSTRAINT "arenas_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "bots" DROP CONSTRAINT "bots_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "chunks" DROP CONSTRAINT "chunks_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "collections" DROP CONSTRAINT "collections_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "documents" DROP CONSTRAINT "documents_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "evaluation_records" DROP CONSTRAINT "evaluation_records_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "evaluation_results" DROP CONSTRAINT "evaluation_results_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "human_labels" DROP CONSTRAINT "human_labels_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "judge_rollups" DROP CONSTRAINT "judge_rollups_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "llm_cache" DROP CONSTRAINT "llm_cache_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "monitor_judgments" DROP CONSTRAINT "monitor_judgments_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "monitors" DROP CONSTRAINT "monitors_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "observational_data" DROP CONSTRAINT "observational_data_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "pending_spans" DROP CONSTRAINT "pending_spans_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "question_generations" DROP CONSTRAINT "question_generations_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "questions" DROP CONSTRAINT "questions_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "rejected_traces" DROP CONSTRAINT "rejected_traces_user_id_users_id_fk";
--> statement-breakpoint
DROP INDEX "alert_rules_user_name_idx";--> statement-breakpoint
DROP INDEX "answer_feedback_user_created_idx";--> statement-breakpoint
DROP INDEX "answer_records_user_received_idx";--> statement-breakpoint
DROP INDEX "idx_arenas_user_id";--> statement-breakpoint
DROP INDEX "bots_user_name_idx";--> statement-breakpoint
DROP INDEX "collections_user_name_idx";--> statement-breakpoint
DROP INDEX "evaluation_records_user_created_idx";--> statement-breakpoint
DROP INDEX "monitors_user_idx";--> statement-breakpoint
DROP INDEX "question_generations_user_idx";--> statement-breakpoint
DROP INDEX "rejected_traces_user_trace_idx";--> statement-breakpoint
DROP INDEX "rejected_traces_user_received_idx";--> statement-breakpoint
DROP INDEX "answer_feedback_answer_idx";--> statement-breakpoint
DROP INDEX "evaluation_records_message_idx";--> statement-breakpoint
DROP INDEX "evaluation_records_status_idx";--> statement-breakpoint
DROP INDEX "idx_evaluation_results_evaluation_id";--> statement-breakpoint
DROP INDEX "monitor_judgments_answer_idx";--> statement-breakpoint
ALTER TABLE "answer_keys" DROP CONSTRAINT "answer_keys_user_id_conversation_id_message_id_pk";--> statement-breakpoint
ALTER TABLE "answer_rollups" DROP CONSTRAINT "answer_rollups_user_id_grain_minute_service_collection_model_meta_key_meta_value_pk";--> statement-breakpoint
ALTER TABLE "judge_rollups" DROP CONSTRAINT "judge_rollups_user_id_grain_minute_service_collection_model_meta_key_meta_value_judge_pk";--> statement-breakpoint
ALTER TABLE "llm_cache" DROP CONSTRAINT "llm_cache_user_id_key_pk";--> statement-breakpoint
ALTER TABLE "pending_spans" DROP CONSTRAINT "pending_spans_user_id_trace_id_span_id_pk";--> statement-breakpoint
ALTER TABLE "alert_events" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_rules" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "answer_feedback" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "answer_keys" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "answer_records" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "answer_rollups" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "arenas" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "bots" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "chunks" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "collections" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "evaluation_records" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "evaluation_results" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "evaluations" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "human_labels" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "judge_rollups" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_cache" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "monitor_judgments" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "monitors" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "observational_data" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_spans" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "question_generations" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "question_sets" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "rejected_traces" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "answer_keys" ADD CONSTRAINT "answer_keys_workspace_id_conversation_id_message_id_pk" PRIMARY KEY("workspace_id","conversation_id","message_id");--> statement-breakpoint
ALTER TABLE "answer_rollups" ADD CONSTRAINT "answer_rollups_workspace_id_grain_minute_service_collection_model_meta_key_meta_value_pk" PRIMARY KEY("workspace_id","grain","minute","service","collection","model","meta_key","meta_value");--> statement-breakpoint
ALTER TABLE "judge_rollups" ADD CONSTRAINT "judge_rollups_workspace_id_grain_minute_service_collection_model_meta_key_meta_value_judge_pk" PRIMARY KEY("workspace_id","grain","minute","service","collection","model","meta_key","meta_value","judge");--> statement-breakpoint
ALTER TABLE "llm_cache" ADD CONSTRAINT "llm_cache_workspace_id_key_pk" PRIMARY KEY("workspace_id","key");--> statement-breakpoint
ALTER TABLE "pending_spans" ADD CONSTRAINT "pending_spans_workspace_id_trace_id_span_id_pk" PRIMARY KEY("workspace_id","trace_id","span_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_rules_workspace_name_idx" ON "alert_rules" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE INDEX "answer_feedback_workspace_created_idx" ON "answer_feedback" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "answer_records_workspace_received_idx" ON "answer_records" USING btree ("workspace_id","received_at");--> statement-breakpoint
CREATE INDEX "api_tokens_workspace_idx" ON "api_tokens" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "idx_arenas_workspace_id" ON "arenas" USING btree ("workspace_id","gmt_created");--> statement-breakpoint
CREATE UNIQUE INDEX "bots_workspace_name_idx" ON "bots" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "collections_workspace_name_idx" ON "collections" USING btree ("workspace_id","name") WHERE "collections"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "evaluation_records_workspace_created_idx" ON "evaluation_records" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "idx_evaluations_workspace_id" ON "evaluations" USING btree ("workspace_id","gmt_created");--> statement-breakpoint
CREATE INDEX "monitors_workspace_idx" ON "monitors" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "question_generations_workspace_idx" ON "question_generations" USING btree ("workspace_id","gmt_created");--> statement-breakpoint
CREATE INDEX "idx_question_sets_workspace_id" ON "question_sets" USING btree ("workspace_id","gmt_created");--> statement-breakpoint
CREATE UNIQUE INDEX "rejected_traces_workspace_trace_idx" ON "rejected_traces" USING btree ("workspace_id","trace_id");--> statement-breakpoint
CREATE INDEX "rejected_traces_workspace_received_idx" ON "rejected_traces" USING btree ("workspace_id","received_at");--> statement-breakpoint
CREATE INDEX "answer_feedback_answer_idx" ON "answer_feedback" USING btree ("workspace_id","answer_id");--> statement-breakpoint
CREATE INDEX "evaluation_records_message_idx" ON "evaluation_records" USING btree ("workspace_id","conversation_id","message_id");--> statement-breakpoint
CREATE INDEX "evaluation_records_status_idx" ON "evaluation_records" USING btree ("workspace_id","status") WHERE "evaluation_records"."status" <> 'pass';--> statement-breakpoint
CREATE INDEX "idx_evaluation_results_evaluation_id" ON "evaluation_results" USING btree ("evaluation_id","position","workspace_id","status","passed","gate_status","question_type","score");--> statement-breakpoint
CREATE INDEX "monitor_judgments_answer_idx" ON "monitor_judgments" USING btree ("workspace_id","answer_id");--> statement-breakpoint
ALTER TABLE "alert_events" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "alert_rules" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "answer_feedback" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "answer_keys" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "answer_records" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "answer_rollups" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "arenas" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "bots" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "chunks" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "collections" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "evaluation_records" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "evaluation_results" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "human_labels" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "judge_rollups" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "llm_cache" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "monitor_judgments" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "monitors" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "observational_data" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "pending_spans" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "question_generations" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "questions" DROP COLUMN "user_id";--> statement-breakpoint
ALTER TABLE "rejected_traces" DROP COLUMN "user_id";