-- Initial console schema (matches prisma/schema.prisma).

-- CreateEnum
CREATE TYPE "TokenRequestStatus" AS ENUM ('PENDING', 'APPROVED', 'DENIED', 'RETRIEVED', 'EXPIRED_UNRETRIEVED');

-- CreateTable
CREATE TABLE "session" (
    "id_hash" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "username" TEXT NOT NULL,
    "mechanism" TEXT NOT NULL,
    "encrypted_credential" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "session_pkey" PRIMARY KEY ("id_hash")
);

-- CreateTable
CREATE TABLE "audit_event" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "principal" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "request" JSONB,
    "before" JSONB,
    "after" JSONB,
    "outcome" TEXT NOT NULL,
    "kafka_error" TEXT,
    "message" TEXT,

    CONSTRAINT "audit_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "token_request" (
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "requester" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "renewers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "max_lifetime_ms" BIGINT,
    "reason" TEXT NOT NULL,
    "status" "TokenRequestStatus" NOT NULL DEFAULT 'PENDING',
    "approver" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "decision_reason" TEXT,
    "token_id" TEXT,
    "encrypted_hmac" TEXT,
    "hmac_deadline" TIMESTAMPTZ(3),
    "retrieved_at" TIMESTAMPTZ(3),

    CONSTRAINT "token_request_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "session_expires_at_idx" ON "session"("expires_at");

-- CreateIndex
CREATE INDEX "audit_event_at_idx" ON "audit_event"("at");

-- CreateIndex
CREATE INDEX "audit_event_principal_at_idx" ON "audit_event"("principal", "at");

-- CreateIndex
CREATE INDEX "audit_event_action_at_idx" ON "audit_event"("action", "at");

-- CreateIndex
CREATE INDEX "token_request_status_created_at_idx" ON "token_request"("status", "created_at");

-- CreateIndex
CREATE INDEX "token_request_requester_created_at_idx" ON "token_request"("requester", "created_at");

-- CreateIndex
CREATE INDEX "token_request_owner_idx" ON "token_request"("owner");
