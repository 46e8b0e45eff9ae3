import type { AclPlanView } from "@/lib/schemas/plans";
import styles from "./cli.module.css";

type CliCommand = AclPlanView["cli"][number];

/**
 * A plan's equivalent kafka-acls.sh or kafka-configs.sh commands (each after its warning, as a
 * comment) and where the admin client's settings go; `empty` stands in for an empty list.
 */
export function CliCommands({
  commands,
  label,
  empty,
}: {
  commands: readonly CliCommand[];
  label: string;
  empty?: string;
}) {
  return (
    <>
      {empty !== undefined && commands.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <pre className={styles.cli} aria-label={label}>
          {commands.map((c) => (c.warning ? `# ${c.warning}\n${c.command}` : c.command)).join("\n")}
        </pre>
      )}
      <p className="muted">
        Put the admin client&apos;s settings (<code>security.protocol</code>, <code>sasl.mechanism</code>,{" "}
        <code>sasl.jaas.config</code>) in the file given as <code>--command-config</code>.
      </p>
    </>
  );
}
