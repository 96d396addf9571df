/*
  Warnings:

  - A unique constraint covering the columns `[email_key]` on the table `users` will be added. If there are existing duplicate values, this will fail.
  - A unique constraint covering the columns `[calendar_token]` on the table `users` will be added. If there are existing duplicate values, this will fail.

*/
-- CreateEnum
CREATE TYPE "account_token_purpose" AS ENUM ('verify_email', 'reset_password', 'change_email_old', 'change_email_new');

-- CreateEnum
CREATE TYPE "outbox_channel" AS ENUM ('mail', 'push', 'webhook');

-- CreateEnum
CREATE TYPE "outbox_status" AS ENUM ('pending', 'sent', 'failed');

-- CreateEnum
CREATE TYPE "vote_rule" AS ENUM ('unanimous', 'majority');

-- CreateEnum
CREATE TYPE "clock_vote_kind" AS ENUM ('pause', 'resume', 'extend');

-- CreateEnum
CREATE TYPE "clock_vote_status" AS ENUM ('open', 'passed', 'failed', 'withdrawn');

-- CreateEnum
CREATE TYPE "seat_request_status" AS ENUM ('pending', 'approved', 'declined', 'withdrawn');

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "deadline_clock" VARCHAR(5),
ADD COLUMN     "deadline_days_off" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "deadline_time_zone" VARCHAR(64),
ADD COLUMN     "grace_per_player" INTEGER NOT NULL DEFAULT 2,
ADD COLUMN     "grace_seconds" INTEGER NOT NULL DEFAULT 86400,
ADD COLUMN     "honour_vacations" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "min_deadlines_kept" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "min_finished_games" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "seat_approval" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "vote_rule" "vote_rule" NOT NULL DEFAULT 'unanimous';

-- AlterTable
ALTER TABLE "phases" ADD COLUMN     "grace_granted_to" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "players" ADD COLUMN     "grace_used" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "replacement_wanted_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "calendar_token" VARCHAR(64),
ADD COLUMN     "email" VARCHAR(254),
ADD COLUMN     "email_key" VARCHAR(254),
ADD COLUMN     "email_undeliverable_at" TIMESTAMPTZ(3),
ADD COLUMN     "email_undeliverable_reason" VARCHAR(300),
ADD COLUMN     "email_verified_at" TIMESTAMPTZ(3),
ADD COLUMN     "time_zone" VARCHAR(64);

-- CreateTable
CREATE TABLE "account_tokens" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "purpose" "account_token_purpose" NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "new_email" VARCHAR(254),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_settings" (
    "user_id" UUID NOT NULL,
    "scope" VARCHAR(36) NOT NULL,
    "settings" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("user_id","scope")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" UUID NOT NULL,
    "channel" "outbox_channel" NOT NULL,
    "dedupe_key" VARCHAR(200) NOT NULL,
    "user_id" UUID,
    "game_id" UUID,
    "target" VARCHAR(1000) NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "outbox_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" VARCHAR(1000),
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_subscriptions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "endpoint" VARCHAR(1000) NOT NULL,
    "p256dh" VARCHAR(200) NOT NULL,
    "auth" VARCHAR(100) NOT NULL,
    "user_agent" VARCHAR(200),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_success_at" TIMESTAMPTZ(3),

    CONSTRAINT "push_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "game_webhooks" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "url" VARCHAR(500) NOT NULL,
    "secret" VARCHAR(64) NOT NULL,
    "events" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_by_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabled_at" TIMESTAMPTZ(3),
    "last_error" VARCHAR(300),

    CONSTRAINT "game_webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vacations" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "sitter_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cancelled_at" TIMESTAMPTZ(3),

    CONSTRAINT "vacations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "clock_votes" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "phase_index" INTEGER NOT NULL,
    "kind" "clock_vote_kind" NOT NULL,
    "extend_seconds" INTEGER,
    "proposed_by_power" VARCHAR(24) NOT NULL,
    "status" "clock_vote_status" NOT NULL DEFAULT 'open',
    "closes_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "clock_votes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "clock_vote_ballots" (
    "vote_id" UUID NOT NULL,
    "power" VARCHAR(24) NOT NULL,
    "agree" BOOLEAN NOT NULL,
    "cast_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "clock_vote_ballots_pkey" PRIMARY KEY ("vote_id","power")
);

-- CreateTable
CREATE TABLE "seat_requests" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "status" "seat_request_status" NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),
    "decided_by_id" UUID,

    CONSTRAINT "seat_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_tokens_token_hash_key" ON "account_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "account_tokens_user_id_purpose_idx" ON "account_tokens"("user_id", "purpose");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_dedupe_key_key" ON "outbox"("dedupe_key");

-- CreateIndex
CREATE INDEX "outbox_status_next_attempt_at_idx" ON "outbox"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "outbox_user_id_created_at_idx" ON "outbox"("user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "push_subscriptions_endpoint_key" ON "push_subscriptions"("endpoint");

-- CreateIndex
CREATE INDEX "push_subscriptions_user_id_idx" ON "push_subscriptions"("user_id");

-- CreateIndex
CREATE INDEX "game_webhooks_game_id_idx" ON "game_webhooks"("game_id");

-- CreateIndex
CREATE INDEX "vacations_user_id_ends_at_idx" ON "vacations"("user_id", "ends_at");

-- CreateIndex
CREATE INDEX "vacations_sitter_id_idx" ON "vacations"("sitter_id");

-- CreateIndex
CREATE INDEX "clock_votes_game_id_status_idx" ON "clock_votes"("game_id", "status");

-- CreateIndex
CREATE INDEX "seat_requests_player_id_status_idx" ON "seat_requests"("player_id", "status");

-- CreateIndex
CREATE INDEX "seat_requests_user_id_idx" ON "seat_requests"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key_key" ON "users"("email_key");

-- CreateIndex
CREATE UNIQUE INDEX "users_calendar_token_key" ON "users"("calendar_token");

-- AddForeignKey
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_webhooks" ADD CONSTRAINT "game_webhooks_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_webhooks" ADD CONSTRAINT "game_webhooks_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vacations" ADD CONSTRAINT "vacations_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vacations" ADD CONSTRAINT "vacations_sitter_id_fkey" FOREIGN KEY ("sitter_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clock_votes" ADD CONSTRAINT "clock_votes_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clock_vote_ballots" ADD CONSTRAINT "clock_vote_ballots_vote_id_fkey" FOREIGN KEY ("vote_id") REFERENCES "clock_votes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seat_requests" ADD CONSTRAINT "seat_requests_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seat_requests" ADD CONSTRAINT "seat_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
