/**
 * One rule for the host of a new ACL, whichever way it arrives: the raw-binding form, the
 * template form and POST /api/v1/acls all refuse what the policy core's checkAclHost
 * refuses, with its message, and store the host the way Kafka compares it.
 */
import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "@/lib/schemas/result";
import { checkAclHost } from "@/lib/policy";
import { aclBindingFormSchema, aclCreateBodySchema, aclDeleteBodySchema, aclTemplateFormSchema } from "./acls";

const FORM = {
  resourceType: "TOPIC",
  patternType: "LITERAL",
  resourceName: "orders",
  principal: "User:bob",
  operation: "READ",
  permissionType: "ALLOW",
};
const TEMPLATE = { template: "producer", principal: "User:svc", topics: "orders" };
const BINDING = { ...FORM, host: "*" };

type Parsable = {
  safeParse: (v: unknown) => {
    success: boolean;
    data?: unknown;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
};
const fieldErrors = (schema: Parsable, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? {} : fieldErrorsOf(r.error!.issues);
};

const REFUSED = ["<b>h</b>", "broker-1", "10.0.0.0/24", "10.0.0.*", "10.1", "256.1.1.1"];

describe("a new ACL's host: the same rule for the form, the template and the API", () => {
  it.each(REFUSED)("refuses %j everywhere, with the same message", (host) => {
    const message = (checkAclHost(host) as { ok: false; message: string }).message;
    expect(fieldErrors(aclBindingFormSchema, { ...FORM, host })).toEqual({ host: [message] });
    expect(fieldErrors(aclTemplateFormSchema, { ...TEMPLATE, host })).toEqual({ host: [message] });
    expect(fieldErrors(aclCreateBodySchema, { bindings: [BINDING, { ...BINDING, host }] })).toEqual({
      "bindings.1.host": [message],
    });
  });

  it("refuses <b>h</b> as a host (the API used to accept it)", () => {
    expect(aclCreateBodySchema.safeParse({ bindings: [{ ...BINDING, host: "<b>h</b>" }] }).success).toBe(false);
  });

  it.each([
    ["*", "*"],
    ["10.0.0.1", "10.0.0.1"],
    ["::1", "0:0:0:0:0:0:0:1"],
    ["2001:db8::42", "2001:db8:0:0:0:0:0:42"],
  ])("accepts %s everywhere and keeps it as Kafka compares it (%s)", (host, kafka) => {
    expect(aclBindingFormSchema.parse({ ...FORM, host })).toMatchObject({ host: kafka });
    expect(aclTemplateFormSchema.parse({ ...TEMPLATE, host })).toMatchObject({ host: kafka });
    expect(aclCreateBodySchema.parse({ bindings: [{ ...BINDING, host }] }).bindings[0]).toMatchObject({ host: kafka });
  });

  it("defaults to * when no host is given", () => {
    expect(aclBindingFormSchema.parse({ ...FORM, host: "" }).host).toBe("*");
    const { host: _host, ...noHost } = BINDING;
    expect(aclCreateBodySchema.parse({ bindings: [noHost] }).bindings[0]!.host).toBe("*");
  });

  it("reports a bad host together with the other fields' errors in the form", () => {
    expect(
      Object.keys(fieldErrors(aclBindingFormSchema, { ...FORM, principal: "bob", host: "<b>h</b>" })).sort(),
    ).toEqual(["host", "principal"]);
  });

  it("still deletes an ACL whatever host Kafka stored it with (made outside the console)", () => {
    for (const host of ["<b>h</b>", "::1", "broker-1"]) {
      expect(aclDeleteBodySchema.parse({ bindings: [{ ...BINDING, host }] }).bindings[0]!.host).toBe(host);
    }
  });
});
