CREATE TABLE "pending_spans" (
	"user_id" uuid NOT NULL,
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"span" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pending_spans_user_id_trace_id_span_id_pk" PRIMARY KEY("user_id","trace_id","span_id")
);
--> statement-breakpoint
ALTER TABLE "pending_spans" ADD CONSTRAINT "pending_spans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;