-- The journal of each cluster's security state (#20): entries, pending console intents, checkpoints, read coverage.

-- CreateTable
CREATE TABLE "journal_entry" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "op" TEXT NOT NULL,
    "value" JSONB,
    "window_from" TIMESTAMPTZ(3) NOT NULL,
    "window_to" TIMESTAMPTZ(3) NOT NULL,
    "origin" TEXT NOT NULL,
    "audit_id" TEXT,
    "plan_id" TEXT,
    "actor" TEXT,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "journal_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "journal_intent" (
    "id" TEXT NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "audit_id" TEXT NOT NULL,
    "plan_id" TEXT,
    "actor" TEXT NOT NULL,
    "changes" JSONB NOT NULL,
    "acl_delete_filters" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "journal_intent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "journal_checkpoint" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "last_entry_id" BIGINT NOT NULL,
    "key_count" INTEGER NOT NULL,
    "state" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "journal_checkpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "journal_coverage" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "covered_from" TIMESTAMPTZ(3) NOT NULL,
    "covered_to" TIMESTAMPTZ(3) NOT NULL,
    "last_read_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "journal_coverage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "journal_entry_cluster_id_id_idx" ON "journal_entry"("cluster_id", "id");

-- CreateIndex
CREATE INDEX "journal_entry_cluster_id_key_id_idx" ON "journal_entry"("cluster_id", "key", "id");

-- CreateIndex
CREATE INDEX "journal_entry_cluster_id_window_to_idx" ON "journal_entry"("cluster_id", "window_to");

-- CreateIndex
CREATE INDEX "journal_intent_cluster_id_status_idx" ON "journal_intent"("cluster_id", "status");

-- CreateIndex
CREATE INDEX "journal_checkpoint_cluster_id_at_idx" ON "journal_checkpoint"("cluster_id", "at");

-- CreateIndex
CREATE INDEX "journal_coverage_cluster_id_covered_to_idx" ON "journal_coverage"("cluster_id", "covered_to");
