/**
 * Where the dev broker (scripts/kafka.sh) offers TLS, for the tests: its SASL_SSL and
 * mTLS listeners and the CA and client certificate it made at first start. Read from the
 * server.properties the script wrote into the broker's state dir (KAFKA_STATE_DIR, default
 * .kafka), so the tests follow whatever ports and files that broker was started with.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export interface DevBrokerTls {
  /** `127.0.0.1:<port>` of the SASL_SSL listener (the same users as SASL_PLAINTEXT). */
  saslSslServer: string;
  /** `127.0.0.1:<port>` of the SSL listener that requires a client certificate. */
  mtlsServer: string;
  /** `127.0.0.1:<port>` of the SASL_PLAINTEXT listener. */
  plaintextServer: string;
  /** The directory holding the files below (and the CA's key, ca.key). */
  dir: string;
  /** PEM of the CA that signed the broker's certificate. */
  caFile: string;
  /** PEM certificate and key of CN=console-client,OU=Clients,O=KSC (User:console-client on the mTLS listener). */
  clientCertFile: string;
  clientKeyFile: string;
}

const root = path.resolve(import.meta.dirname, "../..");

/** The dev broker's TLS listeners and files; throws saying what to do when it has none. */
export function devBrokerTls(env: Readonly<Record<string, string | undefined>> = process.env): DevBrokerTls {
  const stateDir = path.resolve(root, env.KAFKA_STATE_DIR || ".kafka");
  const propsFile = path.join(stateDir, "server.properties");
  if (!existsSync(propsFile))
    throw new Error(`No dev broker in ${stateDir} (no server.properties): start it with \`npm run kafka:start\`.`);
  const props = new Map<string, string>();
  for (const line of readFileSync(propsFile, "utf8").split("\n")) {
    const at = line.indexOf("=");
    if (at > 0 && !line.startsWith("#")) props.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const listeners = new Map<string, string>();
  for (const entry of (props.get("advertised.listeners") ?? "").split(",")) {
    const match = /^(\w+):\/\/(.+)$/.exec(entry.trim());
    if (match) listeners.set(match[1]!.toUpperCase(), match[2]!);
  }
  const saslSsl = listeners.get("SASL_SSL");
  const mtls = listeners.get("MTLS");
  const keystore = props.get("ssl.keystore.location");
  if (!saslSsl || !mtls || !keystore) {
    throw new Error(
      `The dev broker in ${stateDir} was started without its TLS listeners (by an older scripts/kafka.sh): ` +
        `restart it with \`npm run kafka:stop && npm run kafka:start\`.`,
    );
  }
  const dir = path.dirname(keystore);
  return {
    saslSslServer: saslSsl,
    mtlsServer: mtls,
    plaintextServer: listeners.get("CLIENT") ?? "",
    dir,
    caFile: path.join(dir, "ca.pem"),
    clientCertFile: path.join(dir, "client.pem"),
    clientKeyFile: path.join(dir, "client.key"),
  };
}

/**
 * Makes a new CA (key and certificate) in `dir`, one that signed nothing the broker holds; returns its PEM
 * certificate's path.
 */
export function makeUnrelatedCa(dir: string): string {
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=Some other CA",
      "-keyout",
      "other-ca.key",
      "-out",
      "other-ca.pem",
    ],
    {
      cwd: dir,
      stdio: "pipe",
    },
  );
  return path.join(dir, "other-ca.pem");
}
