CREATE TABLE "human_labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"evaluation_id" uuid NOT NULL,
	"evaluation_result_id" uuid NOT NULL,
	"scale" text NOT NULL,
	"score" integer,
	"passed" boolean,
	"note" text,
	"labelled_by" text NOT NULL,
	"labelled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "human_labels" ADD CONSTRAINT "human_labels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "human_labels" ADD CONSTRAINT "human_labels_evaluation_id_evaluations_id_fk" FOREIGN KEY ("evaluation_id") REFERENCES "public"."evaluations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "human_labels" ADD CONSTRAINT "human_labels_evaluation_result_id_evaluation_results_id_fk" FOREIGN KEY ("evaluation_result_id") REFERENCES "public"."evaluation_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "human_labels_result_scale_idx" ON "human_labels" USING btree ("evaluation_result_id","scale");--> statement-breakpoint
CREATE INDEX "human_labels_evaluation_idx" ON "human_labels" USING btree ("evaluation_id","scale");