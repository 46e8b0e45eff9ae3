/**
 * Secret encryption for values the console must keep but never store in clear:
 * the signed-in user's Kafka credential (session table) and a delegation token's
 * HMAC until its single retrieval (token_request table).
 *
 * AES-256-GCM, one random 12-byte IV per message, 16-byte auth tag. Blob format
 * (all ASCII, safe for a TEXT column):
 *
 *     v1.<keyId>.<iv base64url>.<tag base64url>.<ciphertext base64url>
 *
 * `keyId` is the first 8 hex digits of SHA-256("ksc-key-id" || key): it names the
 * key (so a blob written under another key fails with a clear message instead of a
 * bare auth error) without revealing anything useful about it. "v1.<keyId>" is
 * authenticated as associated data, so the header cannot be swapped either.
 *
 * Key source (the settings lib/env.ts reads, at each use), in order:
 *   1. CONSOLE_SECRET_KEY: 32 bytes as 64 hex digits or base64/base64url (44/43 chars).
 *   2. CONSOLE_SECRET_KEY_FILE: path of a file holding the key in the same format.
 *      Outside production it is created (mode 0600) when missing.
 *   3. Outside production only: the dev key file
 *      `${XDG_CONFIG_HOME ?? ~/.config}/kafka-security-console/secret.key`, generated
 *      on first use with mode 0600, in a directory of mode 0700, outside the repo.
 *   In production (NODE_ENV=production) with neither 1 nor an existing 2: an error.
 *
 * Key rotation: put the old key(s) in CONSOLE_SECRET_KEY_PREVIOUS (comma-separated, same
 * formats). They are used only to decrypt blobs whose key id matches; everything new is
 * encrypted with the current key. Remove them once old sessions and token requests have
 * expired.
 *
 * A key file readable by group or others is refused (chmod 600 it).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { secretKeySettings, type SecretKeySettings } from "../env";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export class SecretKeyError extends Error {
  override name = "SecretKeyError";
}

export class DecryptError extends Error {
  override name = "DecryptError";
}

type Key = { key: Buffer; id: string; source: string };

let cache: { fingerprint: string; key: Key } | undefined;

/** Default location of the generated development key (outside any repository). */
export function defaultDevKeyPath(env: SecretKeySettings = secretKeySettings()): string {
  const configHome =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0 ? env.XDG_CONFIG_HOME : path.join(homedir(), ".config");
  return path.join(configHome, "kafka-security-console", "secret.key");
}

/** Parses a 32-byte key given as hex or base64/base64url; `what` names the source in errors. */
export function parseKey(text: string, what: string): Buffer {
  const s = text.trim();
  if (/^[0-9a-fA-F]+$/.test(s) && s.length % 2 === 0) {
    const buf = Buffer.from(s, "hex");
    if (buf.length !== KEY_BYTES) {
      throw new SecretKeyError(
        `${what} must be a 32-byte key (64 hex digits or 44 base64 characters); got ${buf.length} bytes of hex`,
      );
    }
    return buf;
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) {
    throw new SecretKeyError(
      `${what} must be a 32-byte key given as 64 hex digits or base64 (44 characters); it contains other characters`,
    );
  }
  const buf = Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (buf.length !== KEY_BYTES) {
    throw new SecretKeyError(
      `${what} must be a 32-byte key (64 hex digits or 44 base64 characters); got ${buf.length} bytes after ` +
        `base64 decoding`,
    );
  }
  return buf;
}

function keyId(key: Buffer): string {
  return createHash("sha256").update("ksc-key-id").update(key).digest("hex").slice(0, 8);
}

function makeKey(key: Buffer, source: string): Key {
  return { key, id: keyId(key), source };
}

function readKeyFile(file: string): Buffer {
  const st = statSync(file);
  if (process.platform !== "win32" && (st.mode & 0o077) !== 0) {
    throw new SecretKeyError(
      `secret key file ${file} is readable by other users (mode ${(st.mode & 0o777).toString(8)}); run: chmod ` +
        `600 ${file}`,
    );
  }
  return parseKey(readFileSync(file, "utf8"), `secret key file ${file}`);
}

/** Creates the key file (0600) if it does not exist; a concurrent creator wins and we read theirs. */
function readOrCreateKeyFile(file: string): Buffer {
  try {
    return readKeyFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  try {
    writeFileSync(file, key.toString("base64") + "\n", { mode: 0o600, flag: "wx" });
    chmodSync(file, 0o600); // in case the umask removed bits we asked for (it never adds any)
    return key;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return readKeyFile(file);
    throw e;
  }
}

function resolveKey(env: SecretKeySettings = secretKeySettings()): Key {
  const production = env.NODE_ENV === "production";
  const fingerprint = JSON.stringify([
    env.CONSOLE_SECRET_KEY ?? null,
    env.CONSOLE_SECRET_KEY_FILE ?? null,
    production,
    env.XDG_CONFIG_HOME ?? null,
  ]);
  if (cache && cache.fingerprint === fingerprint) return cache.key;

  let key: Key;
  const fromEnv = env.CONSOLE_SECRET_KEY;
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    key = makeKey(parseKey(fromEnv, "CONSOLE_SECRET_KEY"), "CONSOLE_SECRET_KEY");
  } else if (env.CONSOLE_SECRET_KEY_FILE !== undefined && env.CONSOLE_SECRET_KEY_FILE !== "") {
    const file = path.resolve(env.CONSOLE_SECRET_KEY_FILE);
    if (production) {
      try {
        key = makeKey(readKeyFile(file), file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") {
          throw new SecretKeyError(
            `CONSOLE_SECRET_KEY_FILE=${file} does not exist; in production the key is never generated. Create ` +
              `it with: openssl rand -base64 32 > ${file} && chmod 600 ${file}`,
          );
        }
        throw e;
      }
    } else {
      key = makeKey(readOrCreateKeyFile(file), file);
    }
  } else if (production) {
    throw new SecretKeyError(
      "CONSOLE_SECRET_KEY is not set. In production the console needs a 32-byte key to encrypt stored credentials " +
        "(generate one with: openssl rand -base64 32), given in CONSOLE_SECRET_KEY or in a file named by " +
        "CONSOLE_SECRET_KEY_FILE.",
    );
  } else {
    const file = defaultDevKeyPath(env);
    key = makeKey(readOrCreateKeyFile(file), file);
  }
  cache = { fingerprint, key };
  return key;
}

let previousCache: { text: string; keys: Key[] } | undefined;

function previousKeys(env: SecretKeySettings = secretKeySettings()): Key[] {
  const text = env.CONSOLE_SECRET_KEY_PREVIOUS ?? "";
  if (previousCache && previousCache.text === text) return previousCache.keys;
  const keys = text
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "")
    .map((t, i) =>
      makeKey(parseKey(t, `CONSOLE_SECRET_KEY_PREVIOUS entry ${i + 1}`), `CONSOLE_SECRET_KEY_PREVIOUS entry ${i + 1}`),
    );
  previousCache = { text, keys };
  return keys;
}

/** Where the current key comes from and its id (for start-up logs; never the key itself). */
export function describeSecretKey(): { source: string; keyId: string } {
  const k = resolveKey();
  return { source: k.source, keyId: k.id };
}

function aad(id: string): Buffer {
  return Buffer.from(`${VERSION}.${id}`, "ascii");
}

/** Encrypts a UTF-8 string with the console key. Every call uses a fresh IV. */
export function encryptSecret(plaintext: string): string {
  const k = resolveKey();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", k.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(k.id));
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, k.id, iv.toString("base64url"), tag.toString("base64url"), ct.toString("base64url")].join(".");
}

/** Decrypts a blob from encryptSecret. Throws DecryptError on a malformed, tampered or foreign-key blob. */
export function decryptSecret(blob: string): string {
  const parts = blob.split(".");
  if (parts.length !== 5) throw new DecryptError("encrypted secret is malformed (expected 5 dot-separated parts)");
  const [version, id, ivText, tagText, ctText] = parts as [string, string, string, string, string];
  if (version !== VERSION) throw new DecryptError(`encrypted secret has unsupported format version "${version}"`);
  const current = resolveKey();
  const k = id === current.id ? current : previousKeys().find((p) => p.id === id);
  if (!k) {
    throw new DecryptError(
      `encrypted secret was written with key id ${id}, but the current key (${current.source}) has id ${current.id}` +
        " and no key in CONSOLE_SECRET_KEY_PREVIOUS has that id",
    );
  }
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
    throw new DecryptError("encrypted secret is malformed (bad IV or tag length)");
  try {
    const decipher = createDecipheriv("aes-256-gcm", k.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(id));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(ctText, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new DecryptError("encrypted secret failed authentication (tampered, or written with a different key)");
  }
}
