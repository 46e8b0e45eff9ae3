/**
 * Refuses to run end-to-end tests against anything but a local database: the suite
 * signs in, writes audit events and (in later areas) changes Kafka state.
 */
export default function globalSetup() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL must point at the local test database (npm test sets it).");
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`Refusing to run e2e tests against a non-local database (${host}).`);
  }
}
