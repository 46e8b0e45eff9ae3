"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { applyImportAction, previewImportAction, type ImportApplyState, type ImportPreviewState } from "./actions";
import { ACL_IMPORT_FORMATS } from "@/lib/schemas/acl-io";
import type { AclImportProgress } from "@/lib/schemas/acl-io";
import type { AclImportPlanView } from "@/lib/schemas/plans";
import { AclPlanPreview } from "@/components/plans/acl-plan-view";
import { AclPlanResult } from "@/components/plans/acl-plan-result";
import { useFormDraft } from "@/components/ui/form-draft";
import { DraftRestored } from "@/components/ui/draft-restored";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import styles from "./import-form.module.css";

/** What one server action may carry (Next's default body limit); larger files go through the API. */
const MAX_FORM_BYTES = 1_000_000;

const FORMAT_LABEL: Record<(typeof ACL_IMPORT_FORMATS)[number], string> = {
  auto: "by file name or content",
  json: "JSON",
  csv: "CSV",
  yaml: "YAML",
};

/** Where the import plan came from, in one line. */
function ImportSource({ plan }: { plan: AclImportPlanView }) {
  const s = plan.import;
  const scope = s.scope
    ? [
        s.scope.principals.length > 0 ? `principals ${s.scope.principals.join(", ")}` : null,
        s.scope.resourcePrefix !== "" ? `resource names starting with “${s.scope.resourcePrefix}”` : null,
      ]
        .filter(Boolean)
        .join(" and ")
    : null;
  return (
    <p data-testid="import-source">
      {s.fileName ? <span className="mono">{s.fileName}</span> : "The pasted text"} ({s.format.toUpperCase()},{" "}
      {s.bindings} binding{s.bindings === 1 ? "" : "s"}),{" "}
      {s.mode === "add-only" ? (
        <>add only: creates what Kafka lacks, deletes nothing.</>
      ) : (
        <>
          sync within {scope}: also deletes what the file lacks there ({s.inScope} ACL{s.inScope === 1 ? "" : "s"} in
          the scope now).
        </>
      )}
    </p>
  );
}

/**
 * Polls the progress endpoint while Apply runs (the apply itself is one request that ends when every batch is done).
 */
function ApplyProgress({ planId, running }: { planId: string; running: boolean }) {
  const [progress, setProgress] = useState<AclImportProgress | null>(null);
  useEffect(() => {
    if (!running) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const r = await fetch(`/api/v1/acls/import/${encodeURIComponent(planId)}/progress`, { cache: "no-store" });
        if (r.ok && !stopped) setProgress((await r.json()) as AclImportProgress);
      } catch {
        // The next tick tries again; the apply's own answer is what counts.
      }
      if (!stopped) timer = setTimeout(() => void tick(), 500);
    };
    timer = setTimeout(() => void tick(), 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [planId, running]);
  if (!running) return null;
  return (
    <Alert tone="info" testId="import-progress">
      Applying…{" "}
      {progress === null
        ? "sending the first batch."
        : `${progress.batches.done} of ${progress.batches.total} batches ` +
          `done${progress.batches.inFlight > 0 ? ` (${progress.batches.inFlight} being sent)` : ""}; ` +
          `${progress.sent} of ${progress.total} bindings sent, ${progress.succeeded} confirmed by ` +
          `Kafka, ${progress.failed} refused.`}
    </Alert>
  );
}

/**
 * Upload or paste a desired-state file, choose add only or sync within a scope, preview
 * the plan (creates, deletes, blast radius, kafka-acls.sh), then apply exactly it with
 * progress. Every field keeps its value through previews and errors (the selects and radios
 * are keyed on their value: React sets their defaults only when they mount).
 */
export function AclImportForm() {
  const [state, previewAction, previewing] = useActionState<ImportPreviewState, FormData>(previewImportAction, null);
  const [applied, applyAction, applying] = useActionState<ImportApplyState, FormData>(applyImportAction, null);
  const [tooBig, setTooBig] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // A preview sent after the session ended comes back from the sign-in with the pasted file and scope (not a chosen
  // file).
  const restored = useFormDraft(formRef, "acl-import", state);
  const v = state?.values ?? {};
  const errors = state?.error?.fieldErrors ?? {};
  const plan = state?.plan ?? null;
  const appliedHere = plan !== null && applied?.planId === plan.id ? applied.result : null;
  const format = v.format ?? "auto";
  const mode = v.mode ?? "add-only";

  return (
    <>
      <form
        ref={formRef}
        action={previewAction}
        className={`card import-form ${styles.form}`}
        aria-label="Import ACLs"
        noValidate
        onSubmit={(e) => {
          const data = new FormData(e.currentTarget);
          const file = data.get("file");
          const size = (file instanceof File ? file.size : 0) + String(data.get("content") ?? "").length;
          if (size > MAX_FORM_BYTES) {
            e.preventDefault();
            setTooBig(
              `This file is larger than the page can send (${MAX_FORM_BYTES.toLocaleString("en")} bytes): ` +
                `import it with POST /api/v1/plans (kind acl.import) instead.`,
            );
          } else setTooBig(null);
        }}
      >
        <Field id="imp-file" label="File (JSON, CSV or YAML as the export writes them)" errors={errors.file} wide>
          <input type="file" name="file" accept=".json,.csv,.yaml,.yml,application/json,text/csv,application/yaml" />
        </Field>
        <Field id="imp-content" label="or paste it (a chosen file is used instead)" errors={errors.content} wide>
          <textarea name="content" rows={10} spellCheck={false} className="mono" defaultValue={v.content ?? ""} />
        </Field>
        <input type="hidden" name="fileName" value={v.fileName ?? ""} />
        <Field id="imp-format" label="Format">
          <select key={`format-${format}`} name="format" defaultValue={format}>
            {ACL_IMPORT_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABEL[f]}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className={`field ${styles.mode}`}>
          <legend>Mode</legend>
          <label className={styles.choice}>
            <input type="radio" name="mode" value="add-only" defaultChecked={mode === "add-only"} /> add only (never
            deletes)
          </label>
          <label className={styles.choice}>
            <input type="radio" name="mode" value="sync" defaultChecked={mode === "sync"} /> sync within the scope (also
            deletes what the file lacks there)
          </label>
        </fieldset>
        <Field id="imp-principals" label="Scope: principals" errors={errors.principals}>
          <input name="principals" defaultValue={v.principals ?? ""} placeholder="User:svc-orders, User:svc-billing" />
        </Field>
        <Field id="imp-resourcePrefix" label="Scope: resource names starting with" errors={errors.resourcePrefix}>
          <input name="resourcePrefix" defaultValue={v.resourcePrefix ?? ""} placeholder="orders-" />
        </Field>
        <div className="actions">
          <button className="btn" type="submit" disabled={previewing || applying}>
            {previewing ? "Previewing…" : "Preview"}
          </button>
          <p className="hint">
            Sync needs a scope (principals and/or a prefix; both given, both must hold) and deletes only inside it. An
            empty file, or a sync without a scope, is refused: an import never deletes everything.
          </p>
        </div>
        <DraftRestored shown={restored && state === null}>
          Your entries from before the sign-in are back (choose the file again if you had chosen one): preview again.
        </DraftRestored>
        {(tooBig || state?.error) && (
          <Alert tone="error" testId="import-error">
            {tooBig ?? state?.error?.message}
          </Alert>
        )}
      </form>

      {plan && (
        <section aria-label="Import plan" data-testid="import-plan">
          <ImportSource plan={plan} />
          <AclPlanPreview plan={plan} />
          {plan.applicable && appliedHere === null && (
            <form action={applyAction} aria-label="Apply the import">
              <input type="hidden" name="planId" value={plan.id} />
              <button className="btn" type="submit" disabled={applying}>
                {applying ? "Applying…" : `Apply: delete ${plan.delete.length}, create ${plan.create.length}`}
              </button>
            </form>
          )}
          <ApplyProgress planId={plan.id} running={applying} />
          {appliedHere && !appliedHere.ok && (
            <Alert tone="error" testId="import-apply-error">
              {appliedHere.message}
            </Alert>
          )}
          {appliedHere?.ok && <AclPlanResult result={appliedHere.data} />}
        </section>
      )}
    </>
  );
}
