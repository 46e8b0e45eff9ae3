import { describe, expect, it } from "vitest";
import { clusterProblems, ClustersError, DEFAULT_REQUEST_POLICY, loadClusters, parseClustersFile } from "./clusters";

const FILE = (requests: string) => `clusters:
  - id: prod
    bootstrapServers: [k1:9093]
    requests: ${requests}
`;

function problemsOf(text: string): string[] {
  try {
    parseClustersFile(text, "clusters.yaml");
  } catch (error) {
    if (error instanceof ClustersError) return error.problems;
    throw error;
  }
  return [];
}

describe("a cluster's rules for requests (four-eyes, timeouts, grants, owners)", () => {
  it("default to four-eyes off, 72 hours, 8-hour grants and no owners", () => {
    expect(loadClusters({}).clusters[0]!.requests).toEqual(DEFAULT_REQUEST_POLICY);
  });

  it("come from the single-cluster variables", () => {
    const [cluster] = loadClusters({
      KAFKA_REQUIRED_APPROVALS: "2",
      KAFKA_REQUEST_TIMEOUT_HOURS: "24",
      KAFKA_MAX_GRANT_MINUTES: "60",
      KAFKA_RESOURCE_OWNERS: "[{resourceType: TOPIC, prefix: payments-, principals: [User:bob], maxGrantMinutes: 30}]",
    }).clusters;
    expect(cluster!.requests).toEqual({
      approvals: 2,
      timeoutHours: 24,
      maxGrantMinutes: 60,
      owners: [{ resourceType: "TOPIC", prefix: "payments-", principals: ["User:bob"], maxGrantMinutes: 30 }],
    });
  });

  it("refuse bad variables by name, never as NaN or a silent default", () => {
    expect(
      clusterProblems({
        KAFKA_REQUIRED_APPROVALS: "two",
        KAFKA_MAX_GRANT_MINUTES: "-5",
        KAFKA_RESOURCE_OWNERS: "[{resourceType: TABLE, prefix: x, principals: []}]",
      }),
    ).toEqual([
      expect.stringContaining("KAFKA_REQUIRED_APPROVALS: approvals must be a whole number from 0 to 5"),
      expect.stringContaining("KAFKA_MAX_GRANT_MINUTES: maxGrantMinutes must be more than 0"),
      expect.stringContaining("KAFKA_RESOURCE_OWNERS: resourceType must be one of TOPIC"),
      expect.stringContaining("KAFKA_RESOURCE_OWNERS: principals must name at least one owner"),
    ]);
  });

  it("come from the clusters file, problems named by their place", () => {
    const registry = parseClustersFile(
      FILE("{ approvals: 1, owners: [{ resourceType: GROUP, prefix: '', principals: [User:ops] }] }"),
      "clusters.yaml",
    );
    expect(registry.clusters[0]!.requests).toMatchObject({
      approvals: 1,
      timeoutHours: 72,
      owners: [{ resourceType: "GROUP", prefix: "", principals: ["User:ops"] }],
    });
    expect(
      problemsOf(FILE("{ approvals: 9, owners: [{ resourceType: TOPIC, prefix: p, principals: [bob] }] }")),
    ).toEqual([
      expect.stringMatching(/requests\.approvals.*approvals must be a whole number from 0 to 5/),
      expect.stringContaining("requests.owners[0].principals[0]: each owner must be a principal Type:name"),
    ]);
  });
});
