CREATE TABLE "answer_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"answer_id" uuid NOT NULL,
	"answer_received_at" timestamp with time zone NOT NULL,
	"thumb" text,
	"score" double precision,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "answer_feedback" ADD CONSTRAINT "answer_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answer_feedback_answer_idx" ON "answer_feedback" USING btree ("user_id","answer_id");--> statement-breakpoint
CREATE INDEX "answer_feedback_received_idx" ON "answer_feedback" USING btree ("answer_received_at");