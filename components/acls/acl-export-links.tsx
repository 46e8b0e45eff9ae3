import Link from "@/components/link";

const FORMATS = [
  { format: "yaml", label: "YAML (grouped by principal)" },
  { format: "json", label: "JSON" },
  { format: "csv", label: "CSV" },
] as const;

/**
 * Download links for every ACL the viewer may describe (GET /api/v1/acls/export), and the
 * way back in: the import page. For the ACLs page and the import page.
 */
export function AclExportLinks({ showImport = true }: { showImport?: boolean }) {
  return (
    <p className="acl-export" data-testid="acl-export">
      Export the ACLs you may describe as{" "}
      {FORMATS.map((f, i) => (
        <span key={f.format}>
          {i > 0 && (i === FORMATS.length - 1 ? " or " : ", ")}
          <a
            href={`/api/v1/acls/export?format=${f.format}`}
            download
            aria-label={`Export ACLs as ${f.format.toUpperCase()}`}
          >
            {f.label}
          </a>
        </span>
      ))}
      {showImport && (
        <>
          ; edit and <Link href="/acls/import">import</Link> a desired-state file (add only, or sync within a scope).
        </>
      )}
    </p>
  );
}
