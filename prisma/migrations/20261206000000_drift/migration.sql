-- Drift (#20): outside changes kept ("keep it", with a comment) and the plans made to revert them.

-- CreateTable
CREATE TABLE "drift_acknowledgement" (
    "entry_id" BIGINT NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "comment" TEXT NOT NULL,
    "audit_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "drift_acknowledgement_pkey" PRIMARY KEY ("entry_id")
);

-- CreateTable
CREATE TABLE "drift_revert" (
    "entry_id" BIGINT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "drift_revert_pkey" PRIMARY KEY ("entry_id","plan_id")
);

-- CreateIndex
CREATE INDEX "drift_acknowledgement_cluster_id_created_at_idx" ON "drift_acknowledgement"("cluster_id", "created_at");

-- CreateIndex
CREATE INDEX "drift_revert_plan_id_idx" ON "drift_revert"("plan_id");
