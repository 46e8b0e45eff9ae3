/**
 * Drives java/X500NameHarness.java (what Java, and so a Kafka broker, prints for a
 * certificate's subject and for DNs written as text) and makes throwaway certificates with
 * openssl, for lib/policy/identity/x500-name.integration.test.ts and the console's own
 * certificate tests. Needs Java 17 and openssl on PATH.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE = path.join(ROOT, "java", "X500NameHarness.java");

export interface JavaNames {
  /** getSubjectX500Principal().getName() per certificate file. */
  subjects: string[];
  /** new X500Principal(text).getName() per text, or "!" + the exception's class. */
  texts: string[];
}

export function javaX500Names(certificateFiles: readonly string[], texts: readonly string[]): JavaNames {
  const input = texts.map((t) => Buffer.from(t, "utf8").toString("base64")).join("\n") + "\n";
  const output = execFileSync("java", [SOURCE, ...certificateFiles], {
    input,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines = output.trim() === "" ? [] : output.trim().split("\n");
  const answers = lines.map((l) => (l.startsWith("!") ? l : Buffer.from(l, "base64").toString("utf8")));
  return { subjects: answers.slice(0, certificateFiles.length), texts: answers.slice(certificateFiles.length) };
}

/** A directory of self-signed certificates made by openssl (one EC key), removed by `dispose`. */
export class TestCertificates {
  readonly dir = mkdtempSync(path.join(tmpdir(), "ksc-certs-"));
  private readonly key = path.join(this.dir, "key.pem");
  private count = 0;

  constructor() {
    execFileSync("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", this.key], {
      stdio: "pipe",
    });
  }

  /**
   * A certificate for the openssl `-subj` string (`/type=value/...`, `+` joins a multi-valued
   * RDN with -multivalue-rdn). `stringMask` forces the value type (e.g. MASK:0x800 BMPString).
   */
  make(subj: string, options: { flags?: string[]; stringMask?: string } = {}): { der: string; pem: string } {
    const n = this.count++;
    const der = path.join(this.dir, `c${n}.der`);
    const pem = path.join(this.dir, `c${n}.pem`);
    const extra = [...(options.flags ?? [])];
    if (options.stringMask) {
      const cnf = path.join(this.dir, `c${n}.cnf`);
      writeFileSync(cnf, `[req]\ndistinguished_name=dn\nstring_mask=${options.stringMask}\n[dn]\n`);
      extra.push("-config", cnf);
    }
    execFileSync(
      "openssl",
      ["req", "-x509", "-key", this.key, "-subj", subj, "-days", "1", "-outform", "DER", "-out", der, ...extra],
      { stdio: "pipe" },
    );
    execFileSync("openssl", ["x509", "-inform", "DER", "-in", der, "-out", pem], { stdio: "pipe" });
    return { der, pem };
  }

  read(file: string): Buffer {
    return readFileSync(file);
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
