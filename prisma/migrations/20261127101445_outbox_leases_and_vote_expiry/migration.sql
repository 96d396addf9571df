-- The outbox is delivered under leases (server/notify/delivery.ts): a worker claims a batch of rows in one statement
-- (claimed_by, claimed_until), sends them holding no database connection, and marks them; rows whose lease ran out
-- (their instance died) are claimable again by any instance. Open clock votes are expired by a loop
-- (server/clock-votes/expiry.ts), which asks for them by status and closing time.

-- AlterTable
ALTER TABLE "outbox" ADD COLUMN     "claimed_by" VARCHAR(100),
ADD COLUMN     "claimed_until" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "clock_votes_status_closes_at_idx" ON "clock_votes"("status", "closes_at");
