import { describe, expect, it } from "vitest";
import { aclTemplateFormSchema } from "@/lib/schemas/acls";
import { expandTemplate } from "./acls-templates";

const expand = (v: Record<string, string>) =>
  expandTemplate(aclTemplateFormSchema.parse(v)).map(
    (b) => `${b.permissionType} ${b.operation} ${b.resourceType}:${b.resourceName} ${b.patternType} ${b.host}`,
  );

describe("expandTemplate", () => {
  it("producer: WRITE, DESCRIBE, CREATE on each topic; idempotent adds IDEMPOTENT_WRITE", () => {
    expect(expand({ template: "producer", principal: "User:p", topics: "a", idempotent: "on" })).toEqual([
      "ALLOW WRITE TOPIC:a LITERAL *",
      "ALLOW DESCRIBE TOPIC:a LITERAL *",
      "ALLOW CREATE TOPIC:a LITERAL *",
      "ALLOW IDEMPOTENT_WRITE CLUSTER:kafka-cluster LITERAL *",
    ]);
  });

  it("consumer: READ, DESCRIBE on the topics and READ on the group, prefixed when asked, from the host", () => {
    expect(
      expand({
        template: "consumer",
        principal: "User:c",
        topics: "orders-",
        group: "orders-",
        prefixed: "on",
        host: "10.0.0.1",
      }),
    ).toEqual([
      "ALLOW READ TOPIC:orders- PREFIXED 10.0.0.1",
      "ALLOW DESCRIBE TOPIC:orders- PREFIXED 10.0.0.1",
      "ALLOW READ GROUP:orders- PREFIXED 10.0.0.1",
    ]);
  });

  it("transactional and streams expand through the policy core's templates", () => {
    expect(expand({ template: "transactional", principal: "User:t", topics: "a", transactionalId: "tx" })).toContain(
      "ALLOW WRITE TRANSACTIONAL_ID:tx LITERAL *",
    );
    expect(
      expand({
        template: "streams",
        principal: "User:s",
        applicationId: "app",
        inputTopics: "in",
        outputTopics: "out",
      }),
    ).toEqual(
      expect.arrayContaining([
        "ALLOW READ TOPIC:in LITERAL *",
        "ALLOW WRITE TOPIC:out LITERAL *",
        "ALLOW READ GROUP:app LITERAL *",
      ]),
    );
  });
});
