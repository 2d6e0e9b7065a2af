CREATE TABLE "arenas" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"question_set_id" uuid NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"status_reason" text,
	"config" jsonb NOT NULL,
	"results" jsonb,
	"gmt_created" timestamp with time zone DEFAULT now() NOT NULL,
	"gmt_updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD COLUMN "ground_truths" jsonb;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD COLUMN "supplied_answer" jsonb;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "ground_truths" jsonb;--> statement-breakpoint
ALTER TABLE "arenas" ADD CONSTRAINT "arenas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idx_arenas_user_id" ON "arenas" USING btree ("user_id","gmt_created");