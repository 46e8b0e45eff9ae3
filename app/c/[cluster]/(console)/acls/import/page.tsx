import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { AclExportLinks } from "@/components/acls/acl-export-links";
import { AclImportForm } from "./import-form";

export const metadata = { title: "Import ACLs" };

export default async function AclImportPage() {
  const viewer = await requireViewer();
  return (
    <>
      <h1>ACLs as code</h1>
      <p className="lead">
        Keep ACLs in a file: export them, edit the file (or keep it in version control), and import it as a desired
        state. The import is a sealed plan like every change on the <Link href="/acls">ACLs page</Link>: the preview
        shows exactly what would be created and deleted, every decision that changes across the cluster, and the
        kafka-acls.sh commands; Apply carries out exactly that plan as you ({viewer.principal}), in batches with
        progress, each batch recorded in the audit trail.
      </p>
      <AclExportLinks showImport={false} />
      <h2>Import a desired-state file</h2>
      <AclImportForm />
    </>
  );
}
