"use client";

import Link from "@/components/link";
import { useActionState, useRef } from "react";
import { Field, FormActions, FormGrid } from "@/components/ui/field";
import { Alert, ResultPanel } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormDraft } from "@/components/ui/form-draft";
import { DraftRestored } from "@/components/ui/draft-restored";
import type { IdentityMapResult, IdentityResult } from "@/lib/schemas/identities";
import { mapIdentitiesAction, type IdentitiesState } from "./actions";

const SHOWN_FIELDS = ["sslRules", "kerberosRules", "defaultRealm", "clients", "certificates"];

const TYPE_LABEL: Record<IdentityResult["input"]["type"], string> = {
  ssl: "Certificate DN",
  kerberos: "Kerberos principal",
  certificate: "Certificate",
};

export function IdentitiesForm({
  defaults,
}: {
  defaults: { sslRules: string; kerberosRules: string; defaultRealm: string };
}) {
  const [state, formAction] = useActionState<IdentitiesState, FormData>(mapIdentitiesAction, null);
  const formRef = useRef<HTMLFormElement>(null);
  const restored = useFormDraft(formRef, "identities", state);
  const v = state?.values ?? { ...defaults, clients: "", interpret: "auto" };
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <>
      <form ref={formRef} action={formAction} className="card" aria-label="Map identities" noValidate>
        <FormGrid>
          <MonoTextareaField name="sslRules" values={v} errors={errors} />
          <MonoTextareaField name="kerberosRules" values={v} errors={errors} />
          <Field
            id="id-realm"
            label="Kerberos default realm"
            hint="The brokers' krb5.conf default realm (DEFAULT maps only names of this realm)."
            errors={errors.defaultRealm}
          >
            <input name="defaultRealm" defaultValue={v.defaultRealm} placeholder="EXAMPLE.COM" />
          </Field>
          <MonoTextareaField name="clients" values={v} errors={errors} />
          <Field id="id-interpret" label="Read lines as" errors={errors.interpret}>
            <select name="interpret" defaultValue={v.interpret ?? "auto"}>
              <option value="auto">auto (a line with = is a DN)</option>
              <option value="ssl">certificate DNs</option>
              <option value="kerberos">Kerberos principals</option>
            </select>
          </Field>
          <Field
            id="id-certificates"
            label="Certificates (PEM)"
            hint="Their subjects are taken as Kafka sees them. Read on the server, not stored."
            errors={errors.certificates}
          >
            <input type="file" name="certificates" accept=".pem,.crt,.cer,application/x-pem-file" multiple />
          </Field>
          <FormActions>
            <SubmitButton pendingLabel="Mapping…">Map</SubmitButton>
          </FormActions>
        </FormGrid>
        <DraftRestored shown={restored && state === null}>
          Your entries from before the sign-in are back (choose the certificates again if you had chosen some): map
          again.
        </DraftRestored>
      </form>
      {state && !state.ok && <ResultPanel result={state} testId="identities" shownFields={SHOWN_FIELDS} />}
      {state?.ok && <MappingResults result={state.data} />}
    </>
  );
}

/**
 * The form's monospaced text areas (rules, DNs, principals: no spell checking), each a whole row, in the order of the
 * page: the clients after the rule properties. Ids are `id-<name>`.
 */
interface TextareaSpec {
  label: string;
  hint?: string;
  rows: number;
  placeholder: string;
}

const TEXTAREAS: Record<"clients" | "sslRules" | "kerberosRules", TextareaSpec> = {
  clients: {
    label: "Clients: certificate DNs or Kerberos principals, one per line",
    rows: 4,
    placeholder: "CN=svc-orders,OU=ServiceUsers,O=Acme,C=US\nalice@EXAMPLE.COM",
  },
  sslRules: {
    label: "ssl.principal.mapping.rules",
    hint: "As in server.properties; one rule per line is fine. Empty: DEFAULT (the DN itself).",
    rows: 4,
    placeholder: "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L,DEFAULT",
  },
  kerberosRules: {
    label: "sasl.kerberos.principal.to.local.rules",
    hint: "Comma-separated. Empty: DEFAULT.",
    rows: 2,
    placeholder: "RULE:[1:$1@$0](.*@EXAMPLE.COM)s/@.*//,DEFAULT",
  },
};

function MonoTextareaField({
  name,
  values,
  errors,
}: {
  name: keyof typeof TEXTAREAS;
  values: Record<keyof typeof TEXTAREAS, string>;
  errors: Partial<Record<string, string[]>>;
}) {
  const { label, hint, rows, placeholder } = TEXTAREAS[name];
  return (
    <Field id={`id-${name}`} label={label} hint={hint} errors={errors[name]} wide>
      <textarea
        name={name}
        rows={rows}
        defaultValue={values[name]}
        className="mono"
        spellCheck={false}
        placeholder={placeholder}
      />
    </Field>
  );
}

function MappingResults({ result }: { result: IdentityMapResult }) {
  const c = result.config;
  return (
    <section aria-label="Mapping results">
      {c.error !== null && (
        <Alert tone="error" testId="config-error" title={`${c.error.property}: a broker would refuse to start.`}>
          <span className="mono">
            {c.error.error}: {c.error.message}
          </span>
        </Alert>
      )}
      {c.error === null && (
        <p className="muted" data-testid="parsed-rules">
          Rules as Kafka reads them: SSL <span className="mono">[{c.parsedSslRules.join(", ")}]</span>, Kerberos{" "}
          <span className="mono">[{c.parsedKerberosRules.join(", ")}]</span>
          {c.defaultRealm ? (
            <>
              , default realm <span className="mono">{c.defaultRealm}</span>
            </>
          ) : null}
          .
        </p>
      )}
      {result.accessUnavailable !== null && <Alert tone="warn">{result.accessUnavailable}</Alert>}
      <DataTable
        label="Identities"
        rows={result.results.map((r, i) => ({ r, i }))}
        rowKey={({ i }) => String(i)}
        rowProps={({ r }) => ({ "data-testid": "identity-row", "data-ok": String(r.outcome.ok) })}
        columns={IDENTITY_COLUMNS}
      />
    </section>
  );
}

type IdentityRow = { r: IdentityResult; i: number };

function Client({ r }: { r: IdentityResult }) {
  return (
    <>
      <div className="muted">{TYPE_LABEL[r.input.type]}</div>
      <span className="mono">{r.input.value ?? "(none)"}</span>
      {r.certificate && (
        <div className="muted">
          issuer <span className="mono">{r.certificate.issuer}</span>
          {r.certificate.notes.map((n) => (
            <div key={n}>{n}</div>
          ))}
        </div>
      )}
    </>
  );
}

function Rule({ outcome: o }: { outcome: IdentityResult["outcome"] }) {
  if (o.ok) {
    return (
      <span className="mono" data-testid="rule">
        {o.rule === null
          ? "no rule consulted (a name without a realm, or no certificate)"
          : `rule ${o.rule.index + 1}: ${o.rule.text}`}
      </span>
    );
  }
  return (
    <span data-testid="error">
      <span className="mono">
        {o.error}: {o.message}
      </span>
      {o.brokerError && (
        <div className="muted">
          The broker logs {o.brokerError.error}: {o.brokerError.message}
        </div>
      )}
    </span>
  );
}

const IDENTITY_COLUMNS: Column<IdentityRow>[] = [
  { key: "client", header: "Client", cell: ({ r }) => <Client r={r} /> },
  {
    key: "principal",
    header: "Principal",
    cell: ({ r }) =>
      r.outcome.ok ? (
        <strong className="mono" data-testid="principal">
          {r.outcome.principal}
        </strong>
      ) : (
        <Badge tone="bad">refused</Badge>
      ),
  },
  { key: "rule", header: "Rule / Kafka's error", cell: ({ r }) => <Rule outcome={r.outcome} /> },
  {
    key: "access",
    header: "May do (ACLs)",
    cell: ({ r }) => r.outcome.ok && <Access principal={r.outcome.principal} access={r.access} />,
  },
];

function Access({ principal, access }: { principal: string; access: IdentityResult["access"] }) {
  const links = (
    <div className="row">
      <Link href={`/principals/${encodeURIComponent(principal)}`}>principal view</Link>
      <Link
        href={
          `/access-check?` +
          `${new URLSearchParams({ principal, operation: "READ", resourceType: "TOPIC" }).toString()}`
        }
      >
        access check
      </Link>
    </div>
  );
  if (access === null) return links;
  return (
    <div data-testid="access">
      {access.superUser && <Badge tone="info">super user: every operation</Badge>}
      {access.patterns.length === 0 && !access.superUser && (
        <span className="muted">No ACL names this principal or User:*: Kafka denies it everything.</span>
      )}
      <ul className="plain">
        {access.patterns.map((p) => (
          <li key={`${p.resourceType}|${p.patternType}|${p.resourceName}`}>
            <span className="mono">
              {p.resourceType} {p.patternType === "PREFIXED" ? `${p.resourceName}*` : p.resourceName}
            </span>
            {p.allowed.length > 0 && <> — may {p.allowed.join(", ")}</>}
            {p.denied.length > 0 && <> — not {p.denied.join(", ")}</>}
          </li>
        ))}
      </ul>
      {access.more > 0 && <div className="muted">and {access.more} more patterns</div>}
      {links}
    </div>
  );
}
