/**
 * Sign-in over SASL_SSL, end to end in Chromium: a console instance pointed at the dev
 * broker's SASL_SSL listener with the CA the broker made (scripts/kafka.sh) signs the
 * admin in and shows the cluster, reached over TLS; an instance given a CA that did not
 * sign the broker's certificate shows the certificate problem on its sign-in page (not a
 * timeout, not "wrong password"), and its readiness is down with the reason in its log.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test, expect, type Page } from "@playwright/test";
import { devBrokerTls, makeUnrelatedCa } from "@/test/kafka/dev-broker-tls";
import { startInstance, type Instance } from "./console-instance";

const broker = devBrokerTls();
const scratch = mkdtempSync(path.join(tmpdir(), "ksc-e2e-tls-"));
const saslSsl = (caFile: string) => ({
  KAFKA_SECURITY_PROTOCOL: "SASL_SSL",
  KAFKA_BOOTSTRAP_SERVERS: broker.saslSslServer,
  KAFKA_TLS_CA_FILE: caFile,
  LOG_LEVEL: "info",
});

test.describe.serial("sign-in over SASL_SSL", () => {
  let trusted: Instance;
  let wrongCa: Instance;

  test.beforeAll(async () => {
    test.setTimeout(200_000);
    [trusted, wrongCa] = await Promise.all([
      startInstance("sasl-ssl", saslSsl(broker.caFile)),
      startInstance("wrong-ca", saslSsl(makeUnrelatedCa(scratch))),
    ]);
  });

  test.afterAll(() => {
    for (const instance of [trusted, wrongCa])
      if (instance && instance.child.exitCode === null) instance.child.kill("SIGKILL");
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Fills in the admin's credentials and sends them; resolves when the button was clicked. */
  async function signIn(page: Page, instance: Instance): Promise<number> {
    await page.goto(`${instance.url}/sign-in`);
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin-secret");
    const clicked = Date.now();
    await page.getByRole("button", { name: "Sign in" }).click();
    return clicked;
  }

  test("with the broker's CA: the admin signs in and sees the cluster, whose broker is its SASL_SSL listener", async ({
    page,
  }) => {
    await signIn(page, trusted);
    await expect(page.getByRole("heading", { name: "Cluster" })).toBeVisible();
    await expect(page.getByTestId("principal")).toHaveText("User:admin");
    await expect(page.getByTestId("cluster-id")).not.toHaveText("unknown");
    const port = broker.saslSslServer.slice(broker.saslSslServer.lastIndexOf(":") + 1);
    await expect(page.getByRole("table", { name: "Brokers" })).toContainText(port);
    expect((await fetch(`${trusted.url}/api/ready`)).status).toBe(200);
  });

  test("with a CA that did not sign the broker's certificate: the sign-in page names the certificate problem", async ({
    page,
  }) => {
    const started = await signIn(page, wrongCa);
    await expect(
      page.getByRole("alert").filter({
        hasText:
          "The broker's TLS certificate is not trusted: self-signed certificate in certificate chain (check " +
          "KAFKA_TLS_CA_FILE",
      }),
    ).toBeVisible();
    expect(Date.now() - started, "answered well before any Kafka timeout").toBeLessThan(10_000);
    await expect(page).toHaveURL(/\/sign-in/);
    expect((await page.context().cookies()).find((c) => c.name === "ksc_session")).toBeUndefined();

    const ready = await fetch(`${wrongCa.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toBe('{"status":"down"}');
    await expect
      .poll(() => JSON.stringify(wrongCa.lines().find((l) => l.msg === "not ready") ?? null))
      .toContain("The broker's TLS certificate is not trusted");
  });
});
