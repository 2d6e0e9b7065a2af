ALTER TABLE "arenas" ADD COLUMN "status_message" jsonb;--> statement-breakpoint
ALTER TABLE "question_generations" ADD COLUMN "error_message" jsonb;