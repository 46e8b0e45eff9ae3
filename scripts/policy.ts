/**
 * The policy CLI: `npm run --silent policy -- <command>`.
 *
 * JSON mode (the stable contract of docs/policy-cli.md, for scripts, CI and parity tests): a JSON
 * command with no further arguments reads one JSON document on stdin and writes one JSON
 * document on stdout, exit 0. Bad input (unparseable JSON, missing or invalid fields) exits 2
 * with `{ "error": "..." }` on stdout and the message on stderr. `plan` exits 1 when the
 * plan deletes more than `maxDeletes`, its JSON still on stdout and the reason on stderr.
 *
 * Human mode: any other command line (or a JSON command with arguments) is a command for
 * people, printing text: the ACL engineer's `aclHumanCommand`, or `quota` / `budget` here.
 *
 * Modules are imported only for the command being run, to keep startup short.
 */
import { readFile } from "node:fs/promises";

const ACL_JSON_COMMANDS = ["authorize", "authorize-by-type", "filter", "validate-acl", "plan", "expire"] as const;
const QUOTA_TOKEN_JSON_COMMANDS = ["quota", "quota-filter", "quota-alter", "quota-budget", "token"] as const;
const IDENTITY_JSON_COMMANDS = ["principal-map"] as const;
type JsonCommand =
  | (typeof ACL_JSON_COMMANDS)[number]
  | (typeof QUOTA_TOKEN_JSON_COMMANDS)[number]
  | (typeof IDENTITY_JSON_COMMANDS)[number];

const isOneOf = <T extends string>(list: readonly T[], value: string | undefined): value is T =>
  value !== undefined && (list as readonly string[]).includes(value);

const HELP = `Kafka Security Console — policy CLI (offline checks against exported ACLs, quotas and tokens)

JSON commands: one JSON document on stdin, one on stdout; exit 0, or 2 on bad input.
  authorize           { acls, superUsers?, allowEveryoneIfNoAclFound?, requests }
  authorize-by-type   same, requests without resourceName
  filter              { acls, filter }
  validate-acl        { bindings }
  plan                { current, create?, delete? | desired?, mode?: add-only|sync,
                        scope?: { principals?, resourcePrefix? }, superUsers?, allowEveryoneIfNoAclFound?,
                        universe: { principals, hosts, resources }, maxDeletes? }
                      the creates, deletes, invalid bindings and every decision of the universe that
                      changes; sync deletes only inside the scope (principals AND prefix);
                      exit 1 when deletes > maxDeletes
  expire              { acls, grants: [{ id, bindings, expiresAt, ended? }], now }
                      which ACLs the expiry of grants removes at now: a grant's bindings, less those
                      a live grant also holds and those the cluster no longer has
  quota               { configured: [{ entity, key, value }], requests: [{ user, clientId, key } | { ip, key }] }
  quota-filter        { configured, filter: { components: [{ entityType, matchType, match }], strict } }
  quota-alter         { entity, ops: [{ key, value|null }] }
  quota-budget        { configured, change: [{ entity, key, value|null }] }
  token               { operation: create|renew|expire|describe, config, connection, superUsers, acls, tokens,
                        now, request }
  principal-map       { ssl: { rules } | null, kerberos: { rules, defaultRealm } | null,
                        requests: [{ type: "ssl", distinguishedName|null } | { type: "kerberos", principal }] }
                      the principal Kafka 4.1 makes of each client (User:<name>), or Kafka's exception;
                      rules exactly as in server.properties (null: unset); refused rules answer every request

  e.g.  echo '{"entity":{"user":"alice"},"ops":[{"key":"producer_byte_rate","value":0}]}' \\
          | npm run --silent policy -- quota-alter

Commands for people:
`;

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => (stream.write(text) ? resolve() : stream.once("drain", () => resolve())));
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

async function isInputError(e: unknown): Promise<boolean> {
  const { PolicyInputError } = await import("../lib/policy/acl/errors");
  return e instanceof PolicyInputError;
}

async function jsonHandler(command: JsonCommand): Promise<(input: unknown) => unknown> {
  if (isOneOf(QUOTA_TOKEN_JSON_COMMANDS, command))
    return (await import("./policy-quota-token")).quotaTokenJsonCommands[command];
  if (isOneOf(IDENTITY_JSON_COMMANDS, command))
    return (await import("./policy-identity")).identityJsonCommands[command];
  return (await import("./policy-acl")).aclJsonCommands[command];
}

async function runJson(command: JsonCommand): Promise<number> {
  const fail = async (message: string) => {
    await write(process.stdout, JSON.stringify({ error: message }) + "\n");
    await write(process.stderr, `policy ${command}: ${message}\n`);
    return 2;
  };
  if (process.stdin.isTTY) return fail("expects one JSON document on stdin");
  let input: unknown;
  try {
    const text = await readStdin();
    const { jsonNestsDeeperThan, MAX_JSON_DEPTH } = await import("../lib/policy/json-depth");
    if (jsonNestsDeeperThan(text))
      return fail(`stdin nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`);
    input = JSON.parse(text);
  } catch (e) {
    return fail(`stdin is not valid JSON: ${(e as Error).message}`);
  }
  const handler = await jsonHandler(command);
  try {
    const answer = handler(input);
    // Only ACL commands answer with an exit code (the module is loaded already for them).
    const JsonAnswer = isOneOf(ACL_JSON_COMMANDS, command) ? (await import("./policy-acl")).JsonAnswer : null;
    if (JsonAnswer !== null && answer instanceof JsonAnswer) {
      await write(process.stdout, JSON.stringify(answer.output) + "\n");
      await write(process.stderr, `policy ${command}: ${answer.message}\n`);
      return answer.exitCode;
    }
    await write(process.stdout, JSON.stringify(answer) + "\n");
    return 0;
  } catch (e) {
    if (await isInputError(e)) return fail((e as Error).message);
    throw e;
  }
}

type HumanResult = { text: string; exitCode: number } | null;

async function aclHuman(argv: string[], read: (p: string) => Promise<string>): Promise<HumanResult> {
  const { aclHumanCommand } = await import("./policy-acl");
  const text = await aclHumanCommand(argv, read);
  return text === null ? null : { text, exitCode: 0 };
}

async function aclHelp(): Promise<string> {
  const mod: Record<string, unknown> = await import("./policy-acl");
  if (typeof mod.ACL_HUMAN_HELP === "string") return mod.ACL_HUMAN_HELP + "\n";
  return `  explain --acls FILE --principal Type:name --operation OP (--topic T | --group G | --cluster |
          --transactional-id ID | --user User:name | --delegation-token ID) [--host IP]
          [--super-users User:a;User:b] [--allow-everyone-if-no-acl-found]
                        why Kafka allows or denies the request, and the ACLs that apply
  lint FILE             findings in an ACL export (JSON or CSV)
`;
}

async function help(): Promise<string> {
  const { QUOTA_TOKEN_HELP } = await import("./policy-quota-token");
  return HELP + (await aclHelp()) + QUOTA_TOKEN_HELP + "\n";
}

async function runHuman(argv: string[]): Promise<number> {
  const read = (p: string) => readFile(p, "utf8");
  try {
    const { quotaTokenHumanCommand } = await import("./policy-quota-token");
    const result = (await quotaTokenHumanCommand(argv, read)) ?? (await aclHuman(argv, read));
    if (result === null) {
      await write(process.stderr, `policy: unknown command ${JSON.stringify(argv.join(" "))}\n\n${await help()}`);
      return 2;
    }
    await write(process.stdout, result.text);
    return result.exitCode;
  } catch (e) {
    if (await isInputError(e)) {
      await write(process.stderr, `policy: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}

async function main(argv: string[]): Promise<number> {
  const [command] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    await write(command === undefined ? process.stderr : process.stdout, await help());
    return command === undefined ? 2 : 0;
  }
  const isJsonCommand =
    isOneOf(ACL_JSON_COMMANDS, command) ||
    isOneOf(QUOTA_TOKEN_JSON_COMMANDS, command) ||
    isOneOf(IDENTITY_JSON_COMMANDS, command);
  if (isJsonCommand && argv.length === 1) return runJson(command);
  return runHuman(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stdout.write(JSON.stringify({ error: `internal error: ${(e as Error)?.message ?? String(e)}` }) + "\n");
    process.stderr.write(`policy: internal error\n${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
