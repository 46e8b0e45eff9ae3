-- Demo data goes in once per cluster (#17): the Kafka clusters (by Kafka's own cluster id,
-- so a reset dev broker is a new cluster) the console has written its demo data to.
-- seeded_at is NULL while a seed is under way or after one failed: the next start finishes it.

-- CreateTable
CREATE TABLE "demo_seed" (
    "kafka_cluster_id" TEXT NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seeded_at" TIMESTAMPTZ(3),

    CONSTRAINT "demo_seed_pkey" PRIMARY KEY ("kafka_cluster_id")
);
