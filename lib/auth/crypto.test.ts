import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, statSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import {
  decryptSecret,
  defaultDevKeyPath,
  describeSecretKey,
  encryptSecret,
  DecryptError,
  SecretKeyError,
} from "./crypto";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const saved = { ...process.env };
// process.env.NODE_ENV is typed read-only by @types/node; the tests switch it on purpose.
const env = process.env as Record<string, string | undefined>;
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "ksc-crypto-"));
  delete process.env.CONSOLE_SECRET_KEY;
  delete process.env.CONSOLE_SECRET_KEY_FILE;
  delete process.env.CONSOLE_SECRET_KEY_PREVIOUS;
  process.env.XDG_CONFIG_HOME = path.join(dir, "config");
  env.NODE_ENV = "test";
});

afterEach(() => {
  for (const k of [
    "CONSOLE_SECRET_KEY",
    "CONSOLE_SECRET_KEY_FILE",
    "CONSOLE_SECRET_KEY_PREVIOUS",
    "XDG_CONFIG_HOME",
    "NODE_ENV",
  ]) {
    if (saved[k] === undefined) delete process.env[k];
    else env[k] = saved[k];
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("encryptSecret / decryptSecret", () => {
  it("round-trips unicode and empty strings, with a fresh IV each time", () => {
    process.env.CONSOLE_SECRET_KEY = randomBytes(32).toString("base64");
    for (const s of ["", "alice-secret", "pässwörd 🔑 with spaces", "x".repeat(10_000)]) {
      expect(decryptSecret(encryptSecret(s))).toBe(s);
    }
    const a = encryptSecret("same");
    const b = encryptSecret("same");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(a).not.toContain("same");
  });

  it("accepts a hex key and a base64url key", () => {
    const raw = randomBytes(32);
    process.env.CONSOLE_SECRET_KEY = raw.toString("hex");
    const blob = encryptSecret("hello");
    process.env.CONSOLE_SECRET_KEY = raw.toString("base64url");
    expect(decryptSecret(blob)).toBe("hello");
  });

  it("detects tampering with the ciphertext, tag, IV or header", () => {
    process.env.CONSOLE_SECRET_KEY = randomBytes(32).toString("base64");
    const blob = encryptSecret("the credential");
    const parts = blob.split(".");
    const flip = (s: string) => {
      const b = Buffer.from(s, "base64url");
      b[0] = (b[0] ?? 0) ^ 1;
      return b.toString("base64url");
    };
    for (const i of [2, 3, 4]) {
      const t = [...parts];
      t[i] = flip(t[i]!);
      expect(() => decryptSecret(t.join("."))).toThrow(DecryptError);
    }
    expect(() => decryptSecret(["v2", ...parts.slice(1)].join("."))).toThrow(/unsupported format version/);
    expect(() => decryptSecret("not a blob")).toThrow(/malformed/);
  });

  it("fails to decrypt with a different key, naming the key ids", () => {
    process.env.CONSOLE_SECRET_KEY = randomBytes(32).toString("base64");
    const blob = encryptSecret("secret");
    process.env.CONSOLE_SECRET_KEY = randomBytes(32).toString("base64");
    expect(() => decryptSecret(blob)).toThrow(
      /written with key id [0-9a-f]{8}, but the current key .* has id [0-9a-f]{8}/,
    );
  });

  it(
    "decrypts blobs of a rotated-out key listed in CONSOLE_SECRET_KEY_PREVIOUS, and encrypts only with the " +
      "current key",
    () => {
      const oldKey = randomBytes(32).toString("base64");
      const newKey = randomBytes(32).toString("hex");
      process.env.CONSOLE_SECRET_KEY = oldKey;
      const oldBlob = encryptSecret("from before the rotation");
      const oldId = describeSecretKey().keyId;

      process.env.CONSOLE_SECRET_KEY = newKey;
      expect(() => decryptSecret(oldBlob)).toThrow(/no key in CONSOLE_SECRET_KEY_PREVIOUS has that id/);
      process.env.CONSOLE_SECRET_KEY_PREVIOUS = `${randomBytes(32).toString("base64")}, ${oldKey}`;
      expect(decryptSecret(oldBlob)).toBe("from before the rotation");
      const newBlob = encryptSecret("after");
      expect(newBlob.split(".")[1]).toBe(describeSecretKey().keyId);
      expect(newBlob.split(".")[1]).not.toBe(oldId);
      expect(decryptSecret(newBlob)).toBe("after");

      process.env.CONSOLE_SECRET_KEY_PREVIOUS = "tooshort";
      expect(() => decryptSecret(oldBlob)).toThrow(/CONSOLE_SECRET_KEY_PREVIOUS entry 1 must be a 32-byte key/);
    },
  );

  it("rejects keys of the wrong length with a clear message", () => {
    process.env.CONSOLE_SECRET_KEY = randomBytes(16).toString("base64");
    expect(() => encryptSecret("x")).toThrow(SecretKeyError);
    expect(() => encryptSecret("x")).toThrow(/CONSOLE_SECRET_KEY must be a 32-byte key.*got 16 bytes/);
    process.env.CONSOLE_SECRET_KEY = randomBytes(31).toString("hex");
    expect(() => encryptSecret("x")).toThrow(/got 31 bytes/);
    process.env.CONSOLE_SECRET_KEY = "correct horse battery staple";
    expect(() => encryptSecret("x")).toThrow(/CONSOLE_SECRET_KEY must be a 32-byte key/);
  });
});

describe("dev key file", () => {
  it("is generated on first use outside the repo with mode 0600 and reused afterwards", () => {
    const file = defaultDevKeyPath();
    expect(file).toBe(path.join(dir, "config", "kafka-security-console", "secret.key"));
    expect(existsSync(file)).toBe(false);
    const blob = encryptSecret("dev secret");
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(path.relative(repoRoot, file).startsWith("..")).toBe(true);
    expect(describeSecretKey().source).toBe(file);
    const contents = readFileSync(file, "utf8");
    expect(Buffer.from(contents.trim(), "base64")).toHaveLength(32);
    // A later process (cache cleared by a changed environment) reads the same key.
    process.env.CONSOLE_SECRET_KEY_FILE = file;
    expect(decryptSecret(blob)).toBe("dev secret");
    expect(readFileSync(file, "utf8")).toBe(contents);
  });

  it("defaults to ~/.config when XDG_CONFIG_HOME is unset, which is outside the repo", () => {
    delete process.env.XDG_CONFIG_HOME;
    const file = defaultDevKeyPath();
    expect(file.endsWith(path.join(".config", "kafka-security-console", "secret.key"))).toBe(true);
    expect(path.relative(repoRoot, file).startsWith("..")).toBe(true);
  });

  it("honours CONSOLE_SECRET_KEY_FILE and refuses a key file other users can read", () => {
    const file = path.join(dir, "custom.key");
    process.env.CONSOLE_SECRET_KEY_FILE = file;
    expect(decryptSecret(encryptSecret("a"))).toBe("a");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(defaultDevKeyPath())).toBe(false);

    const loose = path.join(dir, "loose.key");
    writeFileSync(loose, randomBytes(32).toString("base64"), { mode: 0o644 });
    process.env.CONSOLE_SECRET_KEY_FILE = loose;
    expect(() => encryptSecret("a")).toThrow(/readable by other users.*chmod 600/);
  });

  it("in production, refuses to run without a key and never generates one", () => {
    env.NODE_ENV = "production";
    expect(() => encryptSecret("a")).toThrow(/CONSOLE_SECRET_KEY is not set/);
    expect(existsSync(defaultDevKeyPath())).toBe(false);
    process.env.CONSOLE_SECRET_KEY_FILE = path.join(dir, "missing.key");
    expect(() => encryptSecret("a")).toThrow(/does not exist; in production the key is never generated/);
    process.env.CONSOLE_SECRET_KEY = randomBytes(32).toString("hex");
    expect(decryptSecret(encryptSecret("prod"))).toBe("prod");
  });
});
