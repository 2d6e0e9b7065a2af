ALTER TABLE "evaluations" ADD COLUMN "cost_spent_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "cost_reserved_usd" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "cost_item_max_usd" double precision;