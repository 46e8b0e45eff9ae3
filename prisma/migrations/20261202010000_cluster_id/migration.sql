-- Several clusters: sessions, audit events, token requests and change plans record the
-- cluster (lib/clusters.ts) they belong to. Rows written before are the single cluster's,
-- whose id is "default".

-- AlterTable
ALTER TABLE "session" ADD COLUMN "cluster_id" TEXT NOT NULL DEFAULT 'default';
ALTER TABLE "audit_event" ADD COLUMN "cluster_id" TEXT NOT NULL DEFAULT 'default';
ALTER TABLE "token_request" ADD COLUMN "cluster_id" TEXT NOT NULL DEFAULT 'default';
ALTER TABLE "change_plan" ADD COLUMN "cluster_id" TEXT NOT NULL DEFAULT 'default';

-- CreateIndex
CREATE INDEX "audit_event_cluster_id_at_idx" ON "audit_event"("cluster_id", "at");
CREATE INDEX "token_request_cluster_id_status_created_at_idx" ON "token_request"("cluster_id", "status", "created_at");
