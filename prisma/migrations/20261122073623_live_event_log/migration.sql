-- CreateTable
CREATE TABLE "live_channels" (
    "channel" VARCHAR(64) NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "live_channels_pkey" PRIMARY KEY ("channel")
);

-- CreateTable
CREATE TABLE "live_events" (
    "channel" VARCHAR(64) NOT NULL,
    "seq" BIGINT NOT NULL,
    "event" JSONB NOT NULL,
    "audience" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "live_events_pkey" PRIMARY KEY ("channel","seq")
);

-- CreateIndex
CREATE INDEX "live_events_created_at_idx" ON "live_events"("created_at");
