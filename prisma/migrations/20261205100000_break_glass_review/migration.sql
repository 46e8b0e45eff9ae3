-- The after-the-fact review of a break-glass apply (#19): one per plan; the dashboard flags a
-- break-glass until it has one.

-- CreateTable
CREATE TABLE "break_glass_review" (
    "id" TEXT NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "plan_id" TEXT NOT NULL,
    "applied_by" TEXT NOT NULL,
    "reviewer" TEXT NOT NULL,
    "comment" TEXT NOT NULL,
    "reviewed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "break_glass_review_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "break_glass_review_plan_id_key" ON "break_glass_review"("plan_id");

-- CreateIndex
CREATE INDEX "break_glass_review_cluster_id_reviewed_at_idx" ON "break_glass_review"("cluster_id", "reviewed_at");
