-- Hardening (#6) and sealed plans (#7): credential re-proof, a sign-in throttle shared by
-- every console instance, audit intent/outcome and visibility, token-request claims,
-- change plans.

-- AlterEnum
ALTER TYPE "TokenRequestStatus" ADD VALUE 'APPROVING' AFTER 'PENDING';

-- AlterTable
ALTER TABLE "session" ADD COLUMN "verified_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "audit_event" ADD COLUMN "category" TEXT NOT NULL DEFAULT 'other',
ADD COLUMN "subjects" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "completed_at" TIMESTAMPTZ(3),
ADD COLUMN "repeat_count" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN "last_at" TIMESTAMPTZ(3),
ADD COLUMN "source_key" TEXT,
ADD COLUMN "plan_id" TEXT;

-- AlterTable
ALTER TABLE "token_request" ADD COLUMN "claimed_by" TEXT,
ADD COLUMN "claimed_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "sign_in_throttle" (
    "key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "in_flight" INTEGER NOT NULL DEFAULT 0,
    "window_started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sign_in_throttle_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "change_plan" (
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "principal" TEXT NOT NULL,
    "session_id_hash" TEXT,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "preview" JSONB,
    "basis" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "applied_at" TIMESTAMPTZ(3),

    CONSTRAINT "change_plan_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_event_category_at_idx" ON "audit_event"("category", "at");

-- CreateIndex
CREATE INDEX "audit_event_source_key_idx" ON "audit_event"("source_key");

-- CreateIndex
CREATE INDEX "sign_in_throttle_last_attempt_at_idx" ON "sign_in_throttle"("last_attempt_at");

-- CreateIndex
CREATE INDEX "change_plan_expires_at_idx" ON "change_plan"("expires_at");

-- CreateIndex
CREATE INDEX "change_plan_principal_created_at_idx" ON "change_plan"("principal", "created_at");
