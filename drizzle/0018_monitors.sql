CREATE TABLE "answer_rollups" (
	"user_id" uuid NOT NULL,
	"grain" integer NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"service" text NOT NULL,
	"collection" text NOT NULL,
	"model" text NOT NULL,
	"meta_key" text NOT NULL,
	"meta_value" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"gate_pass" integer DEFAULT 0 NOT NULL,
	"gate_partial" integer DEFAULT 0 NOT NULL,
	"gate_fail" integer DEFAULT 0 NOT NULL,
	"latency_count" integer DEFAULT 0 NOT NULL,
	"latency_sum" double precision DEFAULT 0 NOT NULL,
	"latency_buckets" integer[] NOT NULL,
	"prompt_tokens" double precision DEFAULT 0 NOT NULL,
	"completion_tokens" double precision DEFAULT 0 NOT NULL,
	"feedback_up" integer DEFAULT 0 NOT NULL,
	"feedback_down" integer DEFAULT 0 NOT NULL,
	"feedback_scores" integer DEFAULT 0 NOT NULL,
	"feedback_score_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "answer_rollups_user_id_grain_minute_service_collection_model_meta_key_meta_value_pk" PRIMARY KEY("user_id","grain","minute","service","collection","model","meta_key","meta_value")
);
--> statement-breakpoint
CREATE TABLE "judge_rollups" (
	"user_id" uuid NOT NULL,
	"grain" integer NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"service" text NOT NULL,
	"collection" text NOT NULL,
	"model" text NOT NULL,
	"meta_key" text NOT NULL,
	"meta_value" text NOT NULL,
	"judge" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"score_sum" double precision DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "judge_rollups_user_id_grain_minute_service_collection_model_meta_key_meta_value_judge_pk" PRIMARY KEY("user_id","grain","minute","service","collection","model","meta_key","meta_value","judge")
);
--> statement-breakpoint
CREATE TABLE "monitor_judgments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"monitor_id" uuid NOT NULL,
	"answer_id" uuid NOT NULL,
	"answer_received_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"skip_reason" text,
	"llm_calls" integer NOT NULL,
	"job_id" text,
	"results" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"judged_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "monitor_minutes" (
	"monitor_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"matched" integer DEFAULT 0 NOT NULL,
	"sampled_out" integer DEFAULT 0 NOT NULL,
	"queued" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"llm_calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "monitor_minutes_monitor_id_minute_pk" PRIMARY KEY("monitor_id","minute")
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"filter" jsonb NOT NULL,
	"sample_rate" double precision NOT NULL,
	"judges" jsonb NOT NULL,
	"max_calls_per_minute" integer NOT NULL,
	"max_calls_per_day" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "answer_records" ADD COLUMN "spans" jsonb;--> statement-breakpoint
ALTER TABLE "answer_rollups" ADD CONSTRAINT "answer_rollups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judge_rollups" ADD CONSTRAINT "judge_rollups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_judgments" ADD CONSTRAINT "monitor_judgments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_judgments" ADD CONSTRAINT "monitor_judgments_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_minutes" ADD CONSTRAINT "monitor_minutes_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_judgments_monitor_answer_idx" ON "monitor_judgments" USING btree ("monitor_id","answer_id");--> statement-breakpoint
CREATE INDEX "monitor_judgments_answer_idx" ON "monitor_judgments" USING btree ("user_id","answer_id");--> statement-breakpoint
CREATE INDEX "monitor_judgments_status_idx" ON "monitor_judgments" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "monitor_judgments_received_idx" ON "monitor_judgments" USING btree ("answer_received_at");--> statement-breakpoint
CREATE INDEX "monitors_user_idx" ON "monitors" USING btree ("user_id");