-- Submissions are ordered by `seq`, taken at insert under the game's lock (commit order), not by `created_at`
-- (when the storing transaction began). Existing rows are numbered in the order they were taken to have so far.

-- DropIndex
DROP INDEX "order_submissions_phase_id_power_created_at_idx";

-- AlterTable (BIGSERIAL, as Prisma writes it, but the rows there already numbered by (created_at, id), not by their place on disk)
CREATE SEQUENCE "order_submissions_seq_seq";
ALTER TABLE "order_submissions" ADD COLUMN "seq" BIGINT;
UPDATE "order_submissions" AS s SET "seq" = o.n
FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS n FROM "order_submissions") AS o
WHERE s."id" = o."id";
SELECT setval('"order_submissions_seq_seq"', coalesce(max("seq"), 0) + 1, false) FROM "order_submissions";
ALTER TABLE "order_submissions" ALTER COLUMN "seq" SET DEFAULT nextval('"order_submissions_seq_seq"'), ALTER COLUMN "seq" SET NOT NULL;
ALTER SEQUENCE "order_submissions_seq_seq" OWNED BY "order_submissions"."seq";

-- CreateIndex
CREATE INDEX "order_submissions_phase_id_power_seq_idx" ON "order_submissions"("phase_id", "power", "seq" DESC);
