CREATE TABLE "evaluation_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"evaluation_id" uuid NOT NULL,
	"question_id" text NOT NULL,
	"position" integer NOT NULL,
	"question_type" text NOT NULL,
	"question_text" text NOT NULL,
	"ground_truth" text NOT NULL,
	"reference_context" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"job_id" text,
	"latency_ms" double precision,
	"usage" jsonb,
	"rag_answer" text,
	"rag_answer_sources" jsonb,
	"rag_citations" jsonb,
	"rag_tool_calls" jsonb,
	"gate_status" text,
	"gate" jsonb,
	"judges" jsonb,
	"llm_judge_score" integer,
	"llm_judge_reasoning" text,
	"score" double precision,
	"passed" boolean,
	"error" text,
	"gmt_created" timestamp with time zone DEFAULT now() NOT NULL,
	"gmt_updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "evaluations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"collection_id" uuid,
	"question_set_id" uuid,
	"bot_id" text NOT NULL,
	"judge_llm_model_id" text NOT NULL,
	"config" jsonb NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"status_reason" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"total_questions" integer DEFAULT 0 NOT NULL,
	"completed_questions" integer DEFAULT 0 NOT NULL,
	"scored_questions" integer DEFAULT 0 NOT NULL,
	"bot_error_count" integer DEFAULT 0 NOT NULL,
	"judge_error_count" integer DEFAULT 0 NOT NULL,
	"average_score" double precision,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"gmt_created" timestamp with time zone DEFAULT now() NOT NULL,
	"gmt_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"gmt_deleted" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "question_generations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"collection_id" uuid NOT NULL,
	"config" jsonb NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"questions" jsonb,
	"heuristic" boolean,
	"warnings" jsonb,
	"error" text,
	"gmt_created" timestamp with time zone DEFAULT now() NOT NULL,
	"gmt_updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"collection_id" uuid,
	"name" text NOT NULL,
	"description" text,
	"question_count" integer DEFAULT 0 NOT NULL,
	"gmt_created" timestamp with time zone DEFAULT now() NOT NULL,
	"gmt_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"gmt_deleted" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"question_set_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"question_type" text NOT NULL,
	"question_text" text NOT NULL,
	"ground_truth" text DEFAULT '' NOT NULL,
	"reference_context" text,
	"question_key" text NOT NULL,
	"gmt_created" timestamp with time zone DEFAULT now() NOT NULL,
	"gmt_updated" timestamp with time zone DEFAULT now() NOT NULL,
	"gmt_deleted" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD CONSTRAINT "evaluation_results_evaluation_id_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."evaluations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_generations" ADD CONSTRAINT "question_generations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_sets" ADD CONSTRAINT "question_sets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_question_set_id_question_sets_id_fk" FOREIGN KEY ("question_set_id") REFERENCES "public"."question_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "evaluation_results_question_idx" ON "evaluation_results" USING btree ("evaluation_id","question_id");--> statement-breakpoint
CREATE INDEX "idx_evaluation_results_evaluation_id" ON "evaluation_results" USING btree ("evaluation_id","position");--> statement-breakpoint
CREATE INDEX "idx_evaluations_user_id" ON "evaluations" USING btree ("user_id","gmt_created");--> statement-breakpoint
CREATE INDEX "idx_evaluations_status" ON "evaluations" USING btree ("status");--> statement-breakpoint
CREATE INDEX "question_generations_user_idx" ON "question_generations" USING btree ("user_id","gmt_created");--> statement-breakpoint
CREATE INDEX "idx_question_sets_user_id" ON "question_sets" USING btree ("user_id","gmt_created");--> statement-breakpoint
CREATE INDEX "idx_question_sets_collection_id" ON "question_sets" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "idx_questions_question_set_id" ON "questions" USING btree ("question_set_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "questions_set_key_idx" ON "questions" USING btree ("question_set_id","question_key") WHERE "questions"."gmt_deleted" is null;