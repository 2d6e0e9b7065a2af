-- Written by drizzle-kit, then edited by hand: answer_records is partitioned by day (PARTITION BY
-- RANGE), which drizzle-kit cannot express; its partitions are created as answers arrive.
CREATE TABLE "answer_keys" (
	"user_id" uuid NOT NULL,
	"conversation_id" text NOT NULL,
	"message_id" text NOT NULL,
	"answer_id" uuid NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "answer_keys_user_id_conversation_id_message_id_pk" PRIMARY KEY("user_id","conversation_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "answer_records" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid NOT NULL,
	"source" text NOT NULL,
	"conversation_id" text NOT NULL,
	"message_id" text NOT NULL,
	"session_id" text,
	"trace_id" text,
	"service" text,
	"collection" text,
	"model" text,
	"query" text,
	"answer" text NOT NULL,
	"input" jsonb NOT NULL,
	"latency_ms" integer,
	"prompt_tokens" integer,
	"completion_tokens" integer,
	"metadata" jsonb NOT NULL,
	"gate_status" text NOT NULL,
	"gate_action" text NOT NULL,
	"rule_version" text NOT NULL,
	"checks" jsonb NOT NULL,
	"scores" jsonb NOT NULL,
	CONSTRAINT "answer_records_id_received_at_pk" PRIMARY KEY("id","received_at")
) PARTITION BY RANGE ("received_at");
--> statement-breakpoint
ALTER TABLE "answer_keys" ADD CONSTRAINT "answer_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_records" ADD CONSTRAINT "answer_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_keys_received_idx" ON "answer_keys" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "answer_records_user_received_idx" ON "answer_records" USING btree ("user_id","received_at");