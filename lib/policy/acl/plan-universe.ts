/**
 * The universe a blast radius is computed over: every principal x host x resource (x the
 * operations kafka-acls.sh allows on its type), and how the console gathers it.
 */
import { WILDCARD_HOST, WILDCARD_PRINCIPAL, WILDCARD_RESOURCE, type AclBinding, type ResourceType } from "../types";

export interface PlanResource {
  resourceType: ResourceType;
  resourceName: string;
}

/** The requests a blast radius is computed over: every principal x host x resource x operation. */
export interface PlanUniverse {
  principals: readonly string[];
  /** Client addresses; the console adds one host no ACL names, standing for "any other host". */
  hosts: readonly string[];
  resources: readonly PlanResource[];
}

export interface ConsoleUniverseSources {
  /** The ACL sets before and after (principals, hosts and names in them). */
  acls: readonly (readonly AclBinding[])[];
  superUsers?: Iterable<string>;
  /** SCRAM user names (`alice`): principals `User:alice`. */
  scramUsers?: Iterable<string>;
  /** Principals of console sessions, `Type:name`. */
  sessionPrincipals?: Iterable<string>;
  topics?: Iterable<string>;
  groups?: Iterable<string>;
  transactionalIds?: Iterable<string>;
}

/** The label of the host that stands for every client address no ACL names. */
export const ANY_OTHER_HOST = "<any other host>";

/**
 * The console's universe: every principal it knows (named in the ACLs before or after —
 * not `User:*`, which the rules cover —, super users, SCRAM users, session principals),
 * every host named in an ACL plus one no ACL names (`otherHost`, normally
 * ANY_OTHER_HOST), and every existing resource (topics, groups and transactional ids of
 * the cluster, LITERAL names in the ACLs other than `*`, the cluster, USER and
 * DELEGATION_TOKEN names in the ACLs).
 */
export function consoleUniverse(sources: ConsoleUniverseSources): { universe: PlanUniverse; otherHost: string } {
  const principals = new Set<string>();
  const hosts = new Set<string>();
  const resources = new Map<string, PlanResource>();
  const addResource = (resourceType: ResourceType, resourceName: string) => {
    resources.set(`${resourceType}\u0000${resourceName}`, { resourceType, resourceName });
  };
  for (const list of sources.acls) {
    for (const b of list) {
      if (b.principal !== WILDCARD_PRINCIPAL) principals.add(b.principal);
      if (b.host !== WILDCARD_HOST) hosts.add(b.host);
      if (b.patternType === "LITERAL" && b.resourceName !== WILDCARD_RESOURCE)
        addResource(b.resourceType, b.resourceName);
    }
  }
  for (const p of sources.superUsers ?? []) principals.add(p);
  for (const u of sources.scramUsers ?? []) principals.add(`User:${u}`);
  for (const p of sources.sessionPrincipals ?? []) principals.add(p);
  for (const t of sources.topics ?? []) addResource("TOPIC", t);
  for (const g of sources.groups ?? []) addResource("GROUP", g);
  for (const t of sources.transactionalIds ?? []) addResource("TRANSACTIONAL_ID", t);
  addResource("CLUSTER", "kafka-cluster");
  let otherHost = ANY_OTHER_HOST;
  while (hosts.has(otherHost)) otherHost += "'";
  hosts.add(otherHost);
  return {
    universe: { principals: [...principals], hosts: [...hosts], resources: [...resources.values()] },
    otherHost,
  };
}
