import { describe, expect, it } from "vitest";
import { KafkaConfigError, loadKafkaConfig } from "./kafka-config";

describe("loadKafkaConfig", () => {
  it("defaults to the dev broker on 127.0.0.1, following KAFKA_PORT", () => {
    expect(loadKafkaConfig({})).toEqual({
      bootstrapServers: ["127.0.0.1:9092"],
      securityProtocol: "SASL_PLAINTEXT",
      tls: undefined,
      clientId: "kafka-security-console",
    });
    expect(loadKafkaConfig({ KAFKA_PORT: "19092" }).bootstrapServers).toEqual(["127.0.0.1:19092"]);
  });

  it("splits a bootstrap list and ignores blanks, empty variables count as unset", () => {
    const config = loadKafkaConfig({
      KAFKA_BOOTSTRAP_SERVERS: " kafka-1:9092, kafka-2:9092 ,",
      KAFKA_CLIENT_ID: "",
      KAFKA_TLS_CA_FILE: "",
    });
    expect(config.bootstrapServers).toEqual(["kafka-1:9092", "kafka-2:9092"]);
    expect(config.clientId).toBe("kafka-security-console");
  });

  it("names the bad variable", () => {
    expect(() => loadKafkaConfig({ KAFKA_BOOTSTRAP_SERVERS: "no-port" })).toThrow(KafkaConfigError);
    expect(() => loadKafkaConfig({ KAFKA_BOOTSTRAP_SERVERS: "no-port" })).toThrow(/KAFKA_BOOTSTRAP_SERVERS/);
    expect(() => loadKafkaConfig({ KAFKA_SECURITY_PROTOCOL: "PLAINTEXT" })).toThrow(/KAFKA_SECURITY_PROTOCOL/);
    expect(() => loadKafkaConfig({ KAFKA_TLS_REJECT_UNAUTHORIZED: "maybe" })).toThrow(/KAFKA_TLS_REJECT_UNAUTHORIZED/);
  });

  it("refuses TLS files without SASL_SSL, a certificate without its key, and unreadable files", () => {
    expect(() => loadKafkaConfig({ KAFKA_TLS_CA_FILE: "/etc/hostname" })).toThrow(/SASL_SSL/);
    expect(() =>
      loadKafkaConfig({ KAFKA_SECURITY_PROTOCOL: "SASL_SSL", KAFKA_TLS_CERT_FILE: "/etc/hostname" }),
    ).toThrow(/together/);
    expect(() =>
      loadKafkaConfig({ KAFKA_SECURITY_PROTOCOL: "SASL_SSL", KAFKA_TLS_CA_FILE: "/nonexistent/ca.pem" }),
    ).toThrow(/KAFKA_TLS_CA_FILE=\/nonexistent\/ca.pem cannot be read/);
  });

  it("builds TLS options for SASL_SSL", () => {
    const config = loadKafkaConfig({
      KAFKA_SECURITY_PROTOCOL: "SASL_SSL",
      KAFKA_TLS_CA_FILE: "/etc/hostname",
      KAFKA_TLS_REJECT_UNAUTHORIZED: "false",
    });
    expect(config.tls?.rejectUnauthorized).toBe(false);
    expect(typeof config.tls?.ca).toBe("string");
  });
});
