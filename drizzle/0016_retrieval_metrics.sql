ALTER TABLE "documents" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD COLUMN "relevant_ids" jsonb;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD COLUMN "reference_contexts" jsonb;--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD COLUMN "retrieval" jsonb;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "relevant_ids" jsonb;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "reference_contexts" jsonb;