import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { aclSuggestions } from "@/lib/services/acl-suggestions";
import { PageHeader } from "@/components/ui/page-header";
import { CreateAclForm } from "../create-acl-form";

export const metadata = { title: "Create ACLs" };

type Search = Record<string, string | string[] | undefined>;

/** The fields a link may fill in (the ACL list's "Clone"); anything else in the address is ignored. */
const PREFILL = [
  "mode",
  "resourceType",
  "patternType",
  "resourceName",
  "principal",
  "host",
  "operation",
  "permissionType",
] as const;

export default async function NewAclPage({ searchParams }: { searchParams: Promise<Search> }) {
  const viewer = await requireViewer();
  const search = await searchParams;
  const initial: Record<string, string> = {};
  for (const k of PREFILL) {
    const v = search[k];
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === "string" && s.length <= 1000) initial[k] = s;
  }
  const suggestions = await aclSuggestions(viewer);
  return (
    <>
      <p>
        <Link href="/acls">← ACLs</Link>
      </p>
      <PageHeader
        title="Create ACLs"
        lead="One binding, or a client role's bindings from a template. Preview first; nothing changes until you apply."
        details={
          <p>
            Preview makes a sealed plan: every decision the change flips across the cluster, and the kafka-acls.sh
            commands. Apply carries out exactly that plan, as you ({viewer.principal}), recorded in the audit trail. The
            operation list shows the operations Kafka accepts on the chosen resource type; the principal and name fields
            suggest what the cluster&apos;s ACLs already use (any other value may be typed).
          </p>
        }
      />
      <CreateAclForm initial={initial} suggestions={suggestions} />
    </>
  );
}
