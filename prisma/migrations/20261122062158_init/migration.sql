-- CreateEnum
CREATE TYPE "session_kind" AS ENUM ('cookie', 'api_token');

-- CreateEnum
CREATE TYPE "game_status" AS ENUM ('forming', 'active', 'finished', 'cancelled');

-- CreateEnum
CREATE TYPE "press_kind" AS ENUM ('full', 'public', 'none');

-- CreateEnum
CREATE TYPE "power_assignment" AS ENUM ('random', 'preferences');

-- CreateEnum
CREATE TYPE "player_status" AS ENUM ('active', 'civil-disorder', 'eliminated');

-- CreateEnum
CREATE TYPE "phase_kind" AS ENUM ('movement', 'retreat', 'adjustment');

-- CreateEnum
CREATE TYPE "phase_status" AS ENUM ('open', 'processing', 'processed');

-- CreateEnum
CREATE TYPE "loan_status" AS ENUM ('proposed', 'active', 'returned', 'cancelled');

-- CreateEnum
CREATE TYPE "draw_vote_kind" AS ENUM ('draw', 'concede');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "username" VARCHAR(24) NOT NULL,
    "username_key" VARCHAR(24) NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" "session_kind" NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "name" VARCHAR(64),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "games" (
    "id" UUID NOT NULL,
    "name" VARCHAR(80) NOT NULL,
    "variant_id" VARCHAR(40) NOT NULL,
    "status" "game_status" NOT NULL DEFAULT 'forming',
    "created_by_id" UUID NOT NULL,
    "game_master_id" UUID NOT NULL,
    "movement_deadline_seconds" INTEGER NOT NULL,
    "retreat_deadline_seconds" INTEGER NOT NULL,
    "adjustment_deadline_seconds" INTEGER NOT NULL,
    "press_kind" "press_kind" NOT NULL,
    "anonymous" BOOLEAN NOT NULL DEFAULT false,
    "private" BOOLEAN NOT NULL DEFAULT false,
    "invite_code" VARCHAR(32),
    "max_missed_deadlines" INTEGER NOT NULL,
    "power_assignment" "power_assignment" NOT NULL DEFAULT 'random',
    "auto_start" BOOLEAN NOT NULL DEFAULT true,
    "seats" INTEGER NOT NULL,
    "outcome" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "players" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "power" VARCHAR(24),
    "status" "player_status" NOT NULL DEFAULT 'active',
    "missed_deadlines" INTEGER NOT NULL DEFAULT 0,
    "power_preferences" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "players_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "phases" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "kind" "phase_kind" NOT NULL,
    "status" "phase_status" NOT NULL DEFAULT 'open',
    "state_before" JSONB NOT NULL,
    "state_after" JSONB,
    "deadline_at" TIMESTAMPTZ(3),
    "processed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "phases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_submissions" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "phase_id" UUID NOT NULL,
    "power" VARCHAR(24) NOT NULL,
    "submitted_by_id" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "orders" JSONB NOT NULL,
    "ready" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_submissions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "press_messages" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "phase_id" UUID,
    "sender_power" VARCHAR(24),
    "sender_user_id" UUID NOT NULL,
    "recipients" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "public" BOOLEAN NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "press_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "loans" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "lender_power" VARCHAR(24) NOT NULL,
    "borrower_power" VARCHAR(24) NOT NULL,
    "centre" VARCHAR(16) NOT NULL,
    "status" "loan_status" NOT NULL DEFAULT 'proposed',
    "proposed_in_phase" INTEGER NOT NULL,
    "ended_in_phase" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "loans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "draw_votes" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "power" VARCHAR(24) NOT NULL,
    "kind" "draw_vote_kind" NOT NULL,
    "powers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "phase_index" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "draw_votes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "game_master_actions" (
    "id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "actor_user_id" UUID NOT NULL,
    "action" VARCHAR(40) NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "game_master_actions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key_key" ON "users"("username_key");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");

-- CreateIndex
CREATE INDEX "sessions_user_id_kind_idx" ON "sessions"("user_id", "kind");

-- CreateIndex
CREATE INDEX "sessions_expires_at_idx" ON "sessions"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "games_invite_code_key" ON "games"("invite_code");

-- CreateIndex
CREATE INDEX "games_status_created_at_idx" ON "games"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "games_game_master_id_idx" ON "games"("game_master_id");

-- CreateIndex
CREATE INDEX "players_user_id_idx" ON "players"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "players_game_id_user_id_key" ON "players"("game_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "players_game_id_power_key" ON "players"("game_id", "power");

-- CreateIndex
CREATE INDEX "phases_status_deadline_at_idx" ON "phases"("status", "deadline_at");

-- CreateIndex
CREATE UNIQUE INDEX "phases_game_id_index_key" ON "phases"("game_id", "index");

-- CreateIndex
CREATE INDEX "order_submissions_phase_id_power_created_at_idx" ON "order_submissions"("phase_id", "power", "created_at" DESC);

-- CreateIndex
CREATE INDEX "order_submissions_game_id_idx" ON "order_submissions"("game_id");

-- CreateIndex
CREATE INDEX "press_messages_game_id_created_at_idx" ON "press_messages"("game_id", "created_at");

-- CreateIndex
CREATE INDEX "loans_game_id_status_idx" ON "loans"("game_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "draw_votes_game_id_power_kind_key" ON "draw_votes"("game_id", "power", "kind");

-- CreateIndex
CREATE INDEX "game_master_actions_game_id_created_at_idx" ON "game_master_actions"("game_id", "created_at");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_game_master_id_fkey" FOREIGN KEY ("game_master_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "players" ADD CONSTRAINT "players_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "players" ADD CONSTRAINT "players_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "phases" ADD CONSTRAINT "phases_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_submissions" ADD CONSTRAINT "order_submissions_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_submissions" ADD CONSTRAINT "order_submissions_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_submissions" ADD CONSTRAINT "order_submissions_submitted_by_id_fkey" FOREIGN KEY ("submitted_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_sender_user_id_fkey" FOREIGN KEY ("sender_user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "loans" ADD CONSTRAINT "loans_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "draw_votes" ADD CONSTRAINT "draw_votes_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_master_actions" ADD CONSTRAINT "game_master_actions_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_master_actions" ADD CONSTRAINT "game_master_actions_actor_user_id_fkey" FOREIGN KEY ("actor_user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
