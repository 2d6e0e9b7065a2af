CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "evaluation_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"user_id" uuid NOT NULL,
	"conversation_id" text NOT NULL,
	"message_id" text NOT NULL,
	"retrieval_record_id" text NOT NULL,
	"generation_record_id" text NOT NULL,
	"status" text NOT NULL,
	"action" text NOT NULL,
	"rule_version" text NOT NULL,
	"config" jsonb NOT NULL,
	"checks" jsonb NOT NULL,
	"scores" jsonb NOT NULL,
	"meta" jsonb NOT NULL,
	"input" jsonb NOT NULL,
	"check_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evaluation_records" ADD CONSTRAINT "evaluation_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "evaluation_records_user_created_idx" ON "evaluation_records" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "evaluation_records_message_idx" ON "evaluation_records" USING btree ("user_id","conversation_id","message_id");--> statement-breakpoint
CREATE INDEX "evaluation_records_status_idx" ON "evaluation_records" USING btree ("user_id","status") WHERE "evaluation_records"."status" <> 'pass';