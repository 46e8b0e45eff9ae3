/**
 * The ACL commands of the policy CLI. scripts/policy.ts dispatches to them:
 * - `aclJsonCommands`: one JSON document in, one out, exactly the shapes of the stable
 *   contract in DESIGN.md (authorize, authorize-by-type, filter, validate-acl). Bad input
 *   throws PolicyInputError; the dispatcher turns it into exit 2 and `{ "error": ... }`.
 * - `aclHumanCommand`: `explain` and `lint`, for people, printing text.
 */
import {
  AclIndex,
  PolicyInputError,
  authorize,
  authorizeByResourceType,
  filterAcls,
  validateNewAcl,
} from "../lib/policy/acl/index";
import {
  parseAclFilter,
  parseAclList,
  parseAuthorizeByResourceTypeRequest,
  parseAuthorizeRequest,
  parseAuthorizerConfig,
} from "../lib/policy/acl/parse";

export { PolicyInputError };

function asObject(input: unknown, command: string): Record<string, unknown> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new PolicyInputError(`${command}: the input must be a JSON object`);
  }
  return input as Record<string, unknown>;
}

function asArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new PolicyInputError(`${where} must be an array`);
  return value;
}

export const aclJsonCommands: Record<"authorize" | "authorize-by-type" | "filter" | "validate-acl", (input: unknown) => unknown> = {
  authorize(input) {
    const doc = asObject(input, "authorize");
    const acls = parseAclList(doc.acls, "acls");
    const config = parseAuthorizerConfig(doc);
    const requests = asArray(doc.requests, "requests").map((r, i) => parseAuthorizeRequest(r, `requests[${i}]`));
    const index = AclIndex.build(acls);
    return { results: requests.map((r) => authorize(index, r, config)) };
  },

  "authorize-by-type"(input) {
    const doc = asObject(input, "authorize-by-type");
    const acls = parseAclList(doc.acls, "acls");
    const config = parseAuthorizerConfig(doc);
    const requests = asArray(doc.requests, "requests").map((r, i) => parseAuthorizeByResourceTypeRequest(r, `requests[${i}]`));
    const index = AclIndex.build(acls);
    return { results: requests.map((r) => authorizeByResourceType(index, r, config)) };
  },

  filter(input) {
    const doc = asObject(input, "filter");
    const acls = parseAclList(doc.acls, "acls");
    const filter = parseAclFilter(doc.filter, "filter");
    return { acls: filterAcls(acls, filter) };
  },

  "validate-acl"(input) {
    const doc = asObject(input, "validate-acl");
    return { results: asArray(doc.bindings, "bindings").map((b) => validateNewAcl(b)) };
  },
};
