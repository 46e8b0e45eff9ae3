import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import type { ScramUserList } from "@/lib/schemas/scram-users";
import { env } from "@/lib/env";
import { listScramUsers } from "@/lib/services/scram-users";
import { findCluster, clusterIdOf } from "@/lib/clusters";
import { DeleteScramButton, ScramCredentialForm, ScramRequestForm } from "./scram-forms";

export const metadata = { title: "SCRAM users" };

export default async function ScramUsersPage() {
  const viewer = await requireViewer();
  const list = await listScramUsers(viewer);
  // Four-eyes: no direct change here; a change is requested and applied at its approval.
  const approvals = findCluster(clusterIdOf(viewer.credential))?.requests.approvals ?? 0;
  return (
    <>
      <PageHeader
        title="SCRAM users"
        lead={
          `Users who sign in to Kafka with SCRAM-SHA-256 or -512, as Kafka shows them to you ` +
          `(${viewer.principal}).`
        }
        details={
          <>
            <p>
              Listing needs DESCRIBE on CLUSTER, every change ALTER on CLUSTER: the console asks Kafka as you, and Kafka
              decides. The console salts and hashes a new password itself (PBKDF2 with the mechanism&apos;s hash, as
              Kafka&apos;s own tools do) and sends Kafka only that; the password is never stored, logged or written to
              the audit trail. A generated password is shown once.
            </p>
            <p>
              Rotating or deleting a credential ends that user&apos;s console sessions within{" "}
              {env().CREDENTIAL_REVERIFY_MINUTES} minutes (CREDENTIAL_REVERIFY_MINUTES): sessions prove their credential
              to Kafka again while in use. Clients already connected to Kafka keep their connection until they
              reconnect.
            </p>
          </>
        }
      />
      {approvals > 0 ? (
        <>
          <h2>Request a SCRAM change</h2>
          <ScramRequestForm approvals={approvals} />
        </>
      ) : (
        <>
          <h2>New user or credential</h2>
          <ScramCredentialForm label="Create" />
        </>
      )}

      <h2>Users</h2>
      {!list.ok ? (
        <Alert tone="error" testId="scram-list-error">
          {list.message}
        </Alert>
      ) : list.data.users.length === 0 ? (
        <EmptyState>No SCRAM users.</EmptyState>
      ) : (
        <DataTable
          label="SCRAM users"
          rows={list.data.users}
          rowKey={(u) => u.user}
          rowProps={(u) => ({ "data-testid": "scram-user", "data-user": u.user })}
          columns={approvals > 0 ? USER_COLUMNS.filter((c) => c.key !== "change") : USER_COLUMNS}
        />
      )}
    </>
  );
}

type ScramUser = ScramUserList["users"][number];

const USER_COLUMNS: Column<ScramUser>[] = [
  {
    key: "user",
    header: "User",
    cell: (u) => (
      <>
        <strong className="mono">{u.user}</strong>
        <div className="row small">
          <Link href={`/principals/${encodeURIComponent(u.principal)}`}>principal</Link>
          <Link href={`/quotas?${new URLSearchParams({ user: u.user }).toString()}`}>quotas</Link>
          <Link href={`/principals/${encodeURIComponent(u.principal)}#tokens`}>tokens</Link>
        </div>
      </>
    ),
  },
  {
    key: "credentials",
    header: "Credentials",
    cell: (u) => (
      <ul className="plain">
        {u.credentials.map((c) => (
          <li key={c.mechanism} className="mono">
            {c.mechanism}, {c.iterations} iterations
          </li>
        ))}
      </ul>
    ),
  },
  {
    key: "change",
    header: "Change",
    cell: (u) => (
      <>
        <details>
          <summary>Rotate password or add a mechanism</summary>
          <ScramCredentialForm user={u.user} mechanism={u.credentials[0]?.mechanism} label="Set password" />
        </details>
        <details>
          <summary>Delete…</summary>
          {u.credentials.length > 1 &&
            u.credentials.map((c) => <DeleteScramButton key={c.mechanism} user={u.user} mechanism={c.mechanism} />)}
          <DeleteScramButton user={u.user} />
        </details>
      </>
    ),
  },
];
