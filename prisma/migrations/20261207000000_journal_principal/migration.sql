-- History (#20): the principal an entry names (an ACL's principal, a SCRAM user as User:<name>,
-- a quota's user as User:<name>), so "what changed for P" and P's timeline read only P's entries.

-- AlterTable
ALTER TABLE "journal_entry" ADD COLUMN "principal" TEXT;

-- Backfill
UPDATE "journal_entry" SET "principal" = ("key"::jsonb) ->> 4 WHERE "kind" = 'acl';
UPDATE "journal_entry" SET "principal" = 'User:' || (("key"::jsonb) ->> 1) WHERE "kind" = 'scram';
UPDATE "journal_entry" SET "principal" = 'User:' || (("key"::jsonb) -> 1 ->> 'user')
  WHERE "kind" = 'quota' AND (("key"::jsonb) -> 1 ->> 'user') IS NOT NULL;

-- CreateIndex
CREATE INDEX "journal_entry_cluster_id_principal_id_idx" ON "journal_entry"("cluster_id", "principal", "id");
