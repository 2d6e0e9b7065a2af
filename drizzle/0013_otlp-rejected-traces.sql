CREATE TABLE "rejected_traces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"trace_id" text NOT NULL,
	"service" text,
	"reason" text NOT NULL,
	"span_count" integer NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rejected_traces" ADD CONSTRAINT "rejected_traces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rejected_traces_user_trace_idx" ON "rejected_traces" USING btree ("user_id","trace_id");--> statement-breakpoint
CREATE INDEX "rejected_traces_user_received_idx" ON "rejected_traces" USING btree ("user_id","received_at");