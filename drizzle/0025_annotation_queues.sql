CREATE TABLE "annotation_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"queue_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"evaluation_result_id" uuid,
	"subject" jsonb NOT NULL,
	"content" jsonb NOT NULL,
	"judge" jsonb,
	"final" jsonb,
	"final_by" uuid,
	"final_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "annotation_labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"queue_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"reviewer_id" uuid NOT NULL,
	"criterion" text NOT NULL,
	"score" integer,
	"passed" boolean,
	"choice" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "annotation_locks" (
	"item_id" uuid NOT NULL,
	"reviewer_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"queue_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "annotation_locks_item_id_reviewer_id_pk" PRIMARY KEY("item_id","reviewer_id")
);
--> statement-breakpoint
CREATE TABLE "annotation_queue_reviewers" (
	"queue_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "annotation_queue_reviewers_queue_id_user_id_pk" PRIMARY KEY("queue_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "annotation_queues" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"source" jsonb NOT NULL,
	"rubric" jsonb NOT NULL,
	"reviewers_per_item" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "annotation_items" ADD CONSTRAINT "annotation_items_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_items" ADD CONSTRAINT "annotation_items_queue_id_annotation_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."annotation_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_items" ADD CONSTRAINT "annotation_items_evaluation_result_id_evaluation_results_id_fk" FOREIGN KEY ("evaluation_result_id") REFERENCES "public"."evaluation_results"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_items" ADD CONSTRAINT "annotation_items_final_by_users_id_fk" FOREIGN KEY ("final_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_labels" ADD CONSTRAINT "annotation_labels_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_labels" ADD CONSTRAINT "annotation_labels_queue_id_annotation_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."annotation_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_labels" ADD CONSTRAINT "annotation_labels_item_id_annotation_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."annotation_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_labels" ADD CONSTRAINT "annotation_labels_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_locks" ADD CONSTRAINT "annotation_locks_item_id_annotation_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."annotation_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_locks" ADD CONSTRAINT "annotation_locks_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_locks" ADD CONSTRAINT "annotation_locks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_locks" ADD CONSTRAINT "annotation_locks_queue_id_annotation_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."annotation_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_queue_reviewers" ADD CONSTRAINT "annotation_queue_reviewers_queue_id_annotation_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."annotation_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_queue_reviewers" ADD CONSTRAINT "annotation_queue_reviewers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_queues" ADD CONSTRAINT "annotation_queues_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotation_queues" ADD CONSTRAINT "annotation_queues_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "annotation_items_queue_position_idx" ON "annotation_items" USING btree ("queue_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "annotation_labels_item_reviewer_criterion_idx" ON "annotation_labels" USING btree ("item_id","reviewer_id","criterion");--> statement-breakpoint
CREATE INDEX "annotation_labels_queue_idx" ON "annotation_labels" USING btree ("queue_id","reviewer_id");--> statement-breakpoint
CREATE INDEX "annotation_locks_queue_idx" ON "annotation_locks" USING btree ("queue_id","reviewer_id");--> statement-breakpoint
CREATE INDEX "annotation_queues_workspace_idx" ON "annotation_queues" USING btree ("workspace_id","created_at");