/**
 * Who a Kafka connection authenticates as: the signed-in user's credential and the SASL
 * mechanisms the console offers. Below lib/kafka and lib/clusters, which both use it
 * (lib/kafka/types.ts re-exports it for the adapter's callers).
 */
import { MECHANISMS } from "@/lib/schemas/session";

/** The password mechanisms, as the sign-in form offers them. */
export const KAFKA_MECHANISMS = MECHANISMS;
export type KafkaMechanism = (typeof KAFKA_MECHANISMS)[number];

/** How a session authenticates to Kafka: a password mechanism, or the person's OIDC access token (#21). */
export type SessionMechanism = KafkaMechanism | "OAUTHBEARER";

/**
 * A person signed in with single sign-on (docs/sso.md): Kafka is sent their access token
 * (SASL/OAUTHBEARER), asked anew at every connection and re-authentication, so a refreshed token
 * reaches connections that are already open.
 */
export interface OAuthBearer {
  /** What the connections are kept by: the session (or, for an API caller's Bearer token, the token's hash). */
  key: string;
  /** The current access token (refreshed before it expires); rejects when the sign-in has ended. */
  token: () => Promise<string>;
}

export interface KafkaCredential {
  /** The principal's name (for OAUTHBEARER, the claim the brokers name it by). */
  username: string;
  /** "" for OAUTHBEARER. */
  password: string;
  mechanism: SessionMechanism;
  /** Set exactly when mechanism is OAUTHBEARER. */
  oauth?: OAuthBearer;
  /**
   * The cluster (lib/clusters.ts) this credential is for: every call made with it goes
   * there. Absent: the default cluster.
   */
  clusterId?: string;
}
