-- Which grant holds which binding (#19): a removal looks up the other holders of its bindings by index.

-- CreateTable
CREATE TABLE "grant_binding" (
    "grant_id" TEXT NOT NULL,
    "cluster_id" TEXT NOT NULL,
    "binding_key" TEXT NOT NULL,

    CONSTRAINT "grant_binding_pkey" PRIMARY KEY ("grant_id","binding_key")
);

-- CreateIndex
CREATE INDEX "grant_binding_cluster_id_binding_key_idx" ON "grant_binding"("cluster_id", "binding_key");
