-- Requests for changes, their approvals, and grants that end by themselves (#19).

-- AlterTable
ALTER TABLE "change_plan" ADD COLUMN "input" JSONB,
ADD COLUMN "request_id" TEXT;

-- CreateTable
CREATE TABLE "change_request" (
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cluster_id" TEXT NOT NULL,
    "requester" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "summary" TEXT NOT NULL,
    "grant_seconds" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "timeout_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_by" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "comment" TEXT,
    "plan_id" TEXT,
    "claimed_by" TEXT,
    "claimed_at" TIMESTAMPTZ(3),

    CONSTRAINT "change_request_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "request_approval" (
    "request_id" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "plan_id" TEXT NOT NULL,

    CONSTRAINT "request_approval_pkey" PRIMARY KEY ("request_id","principal")
);

-- CreateTable
CREATE TABLE "access_grant" (
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cluster_id" TEXT NOT NULL,
    "request_id" TEXT,
    "requester" TEXT NOT NULL,
    "approver" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "bindings" JSONB NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'LIVE',
    "ended_at" TIMESTAMPTZ(3),
    "ended_by" TEXT,
    "removal_plan_id" TEXT,
    "outcome" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "claimed_at" TIMESTAMPTZ(3),

    CONSTRAINT "access_grant_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "change_request_cluster_id_status_created_at_idx" ON "change_request"("cluster_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "change_request_requester_created_at_idx" ON "change_request"("requester", "created_at");

-- CreateIndex
CREATE INDEX "change_request_timeout_at_idx" ON "change_request"("timeout_at");

-- CreateIndex
CREATE INDEX "access_grant_cluster_id_status_expires_at_idx" ON "access_grant"("cluster_id", "status", "expires_at");

-- CreateIndex
CREATE INDEX "access_grant_status_expires_at_idx" ON "access_grant"("status", "expires_at");
