-- Import progress reads the audit events of one plan: index them by plan.

-- CreateIndex
CREATE INDEX "audit_event_plan_id_idx" ON "audit_event"("plan_id");
