-- A webhook per cluster for notifications of requests and grants (#19).

-- CreateTable
CREATE TABLE "cluster_webhook" (
    "cluster_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "encrypted_secret" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT NOT NULL,

    CONSTRAINT "cluster_webhook_pkey" PRIMARY KEY ("cluster_id")
);
