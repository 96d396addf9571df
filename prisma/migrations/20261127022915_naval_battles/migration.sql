-- CreateEnum
CREATE TYPE "battle_status" AS ENUM ('forming', 'active', 'finished', 'cancelled');

-- CreateEnum
CREATE TYPE "battle_pace" AS ENUM ('live', 'correspondence');

-- CreateEnum
CREATE TYPE "battle_seat_role" AS ENUM ('side', 'umpire');

-- CreateEnum
CREATE TYPE "battle_player" AS ENUM ('human', 'computer');

-- CreateEnum
CREATE TYPE "battle_actor" AS ENUM ('player', 'computer', 'deadline');

-- CreateTable
CREATE TABLE "battles" (
    "id" UUID NOT NULL,
    "title" VARCHAR(120) NOT NULL,
    "ruleset" VARCHAR(20) NOT NULL,
    "scenario_id" VARCHAR(60),
    "setup" JSONB NOT NULL,
    "created_by_id" UUID,
    "status" "battle_status" NOT NULL DEFAULT 'forming',
    "private" BOOLEAN NOT NULL DEFAULT false,
    "invite_code" VARCHAR(32),
    "pace" "battle_pace" NOT NULL DEFAULT 'correspondence',
    "turn_seconds" INTEGER NOT NULL,
    "commitment" CHAR(64) NOT NULL,
    "salt" VARCHAR(400),
    "start_log" JSONB,
    "state" JSONB,
    "action_count" INTEGER NOT NULL DEFAULT 0,
    "next_roll" INTEGER NOT NULL DEFAULT 0,
    "decision" VARCHAR(200),
    "deadline_at" TIMESTAMPTZ(3),
    "outcome" JSONB,
    "imported_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "battles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "battle_seeds" (
    "battle_id" UUID NOT NULL,
    "seed" VARCHAR(200) NOT NULL,

    CONSTRAINT "battle_seeds_pkey" PRIMARY KEY ("battle_id")
);

-- CreateTable
CREATE TABLE "battle_seats" (
    "id" UUID NOT NULL,
    "battle_id" UUID NOT NULL,
    "role" "battle_seat_role" NOT NULL,
    "side" VARCHAR(40),
    "player" "battle_player" NOT NULL,
    "user_id" UUID,
    "entropy" VARCHAR(64),
    "joined_at" TIMESTAMPTZ(3),

    CONSTRAINT "battle_seats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "battle_actions" (
    "id" UUID NOT NULL,
    "battle_id" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "side" VARCHAR(40) NOT NULL,
    "action" JSONB NOT NULL,
    "text" TEXT NOT NULL,
    "log" JSONB NOT NULL,
    "by" "battle_actor" NOT NULL,
    "user_id" UUID,
    "secret" BOOLEAN NOT NULL DEFAULT false,
    "revealed" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "battle_actions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "battle_notes" (
    "id" UUID NOT NULL,
    "battle_id" UUID NOT NULL,
    "author_id" UUID,
    "text" VARCHAR(2000) NOT NULL,
    "action_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "battle_notes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "battles_invite_code_key" ON "battles"("invite_code");

-- CreateIndex
CREATE INDEX "battles_status_created_at_idx" ON "battles"("status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "battles_status_finished_at_idx" ON "battles"("status", "finished_at" DESC);

-- CreateIndex
CREATE INDEX "battles_status_deadline_at_idx" ON "battles"("status", "deadline_at");

-- CreateIndex
CREATE INDEX "battle_seats_user_id_idx" ON "battle_seats"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "battle_seats_battle_id_side_key" ON "battle_seats"("battle_id", "side");

-- CreateIndex
CREATE UNIQUE INDEX "battle_seats_battle_id_user_id_key" ON "battle_seats"("battle_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "battle_actions_battle_id_index_key" ON "battle_actions"("battle_id", "index");

-- CreateIndex
CREATE INDEX "battle_notes_battle_id_created_at_idx" ON "battle_notes"("battle_id", "created_at");

-- AddForeignKey
ALTER TABLE "battles" ADD CONSTRAINT "battles_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "battle_seeds" ADD CONSTRAINT "battle_seeds_battle_id_fkey" FOREIGN KEY ("battle_id") REFERENCES "battles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "battle_seats" ADD CONSTRAINT "battle_seats_battle_id_fkey" FOREIGN KEY ("battle_id") REFERENCES "battles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "battle_seats" ADD CONSTRAINT "battle_seats_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "battle_actions" ADD CONSTRAINT "battle_actions_battle_id_fkey" FOREIGN KEY ("battle_id") REFERENCES "battles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "battle_actions" ADD CONSTRAINT "battle_actions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "battle_notes" ADD CONSTRAINT "battle_notes_battle_id_fkey" FOREIGN KEY ("battle_id") REFERENCES "battles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "battle_notes" ADD CONSTRAINT "battle_notes_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
