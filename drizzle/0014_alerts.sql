CREATE TABLE "alert_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"fired_at" timestamp with time zone NOT NULL,
	"value" double precision NOT NULL,
	"count" integer NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_value" double precision,
	"resolved_count" integer,
	"fired_delivery" jsonb,
	"resolved_delivery" jsonb
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"metric" text NOT NULL,
	"comparison" text NOT NULL,
	"threshold" double precision NOT NULL,
	"window_minutes" integer NOT NULL,
	"min_count" integer NOT NULL,
	"filter" jsonb NOT NULL,
	"webhook_url" text NOT NULL,
	"secret" text NOT NULL,
	"cooldown_minutes" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"evaluated_at" timestamp with time zone,
	"last_value" double precision,
	"last_count" integer
);
--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_events" ADD CONSTRAINT "alert_events_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_events_open_idx" ON "alert_events" USING btree ("rule_id") WHERE "alert_events"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alert_events_rule_fired_idx" ON "alert_events" USING btree ("rule_id","fired_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_rules_user_name_idx" ON "alert_rules" USING btree ("user_id","name");--> statement-breakpoint
CREATE INDEX "alert_rules_enabled_idx" ON "alert_rules" USING btree ("enabled");--> statement-breakpoint
CREATE INDEX "answer_feedback_user_created_idx" ON "answer_feedback" USING btree ("user_id","created_at");