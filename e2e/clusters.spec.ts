/**
 * Sign-in on two clusters and the cluster switcher, in Chromium: a console instance with a
 * clusters file naming two clusters offers a Cluster select on its sign-in page, the
 * session acts on the cluster chosen, and the shell's switcher goes to the other cluster's
 * sign-in, or straight to its console when the browser has a session there. The two clusters are the dev broker reached
 * two ways (its SASL_PLAINTEXT listener and its SASL_SSL listener with the CA it made), so the spec needs nothing
 * `npm test` does not start; which one a session is on shows in the brokers it lists.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test, expect, type Page } from "@playwright/test";
import { devBrokerTls } from "@/test/kafka/dev-broker-tls";
import { startInstance, type Instance } from "./console-instance";

// CLUSTERS_E2E_STATE_DIR: take the TLS listener of another broker started by scripts/kafka.sh (its state dir).
const broker = devBrokerTls({
  ...process.env,
  KAFKA_STATE_DIR: process.env.CLUSTERS_E2E_STATE_DIR ?? process.env.KAFKA_STATE_DIR,
});
const scratch = mkdtempSync(path.join(tmpdir(), "ksc-e2e-clusters-"));
const plainPort = process.env.KAFKA_PORT ?? "9092";
const sslPort = broker.saslSslServer.slice(broker.saslSslServer.lastIndexOf(":") + 1);

test.describe.serial("two clusters in one console", () => {
  let instance: Instance;

  test.beforeAll(async () => {
    test.setTimeout(200_000);
    const file = path.join(scratch, "clusters.yaml");
    writeFileSync(
      file,
      `clusters:
  - id: plain
    name: Plain listener
    bootstrapServers: [127.0.0.1:${plainPort}]
    superUsers: [User:admin]
  - id: tls
    name: TLS listener
    bootstrapServers: [${broker.saslSslServer}]
    securityProtocol: SASL_SSL
    tls: { caFile: ${broker.caFile} }
    saslMechanisms: [SCRAM-SHA-512]
    superUsers: [User:admin]
`,
    );
    // The single-cluster variables are refused beside a clusters file: blank is unset.
    instance = await startInstance("clusters", {
      CLUSTERS_FILE: file,
      KAFKA_BOOTSTRAP_SERVERS: "",
      KAFKA_SUPER_USERS: "",
      KAFKA_SECURITY_PROTOCOL: "",
      KAFKA_SERVICE_CREDENTIALS_FILE: "",
      LOG_LEVEL: "info",
    });
  });

  test.afterAll(() => {
    if (instance && instance.child.exitCode === null) instance.child.kill("SIGKILL");
    rmSync(scratch, { recursive: true, force: true });
  });

  async function signInTo(page: Page, cluster: string, id?: string): Promise<void> {
    await page.goto(`${instance.url}/sign-in${id ? `?cluster=${id}` : ""}`);
    await page.getByLabel("Cluster").selectOption({ label: cluster });
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin-secret");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("principal")).toHaveText("User:admin");
  }

  test("the sign-in page offers both clusters, and the session works on the one chosen", async ({ page }) => {
    await page.goto(`${instance.url}/sign-in`);
    await expect(page.getByLabel("Cluster").locator("option")).toHaveText([
      "Plain listener (plain)",
      "TLS listener (tls)",
    ]);

    await signInTo(page, "TLS listener (tls)");
    await expect(page.getByRole("table", { name: "Brokers" })).toContainText(sslPort);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in\?cluster=tls$/);
    await signInTo(page, "Plain listener (plain)");
    await expect(page.getByRole("table", { name: "Brokers" })).toContainText(plainPort);
    await expect(page.getByRole("table", { name: "Brokers" })).not.toContainText(sslPort);
  });

  test(
    "the switcher shows the cluster, goes to the other's sign-in, and back and forth once signed in to " + "both",
    async ({ page }) => {
      await signInTo(page, "Plain listener (plain)");
      const switcher = page.getByRole("form", { name: "Cluster" });
      await expect(switcher.getByTestId("cluster-name")).toHaveText("Plain listener");

      await switcher.getByLabel("Switch to cluster").selectOption({ label: "TLS listener" });
      await switcher.getByRole("button", { name: "Switch" }).click();
      await expect(page).toHaveURL(/\/sign-in\?cluster=tls(&|$)/);
      await expect(page.getByLabel("Cluster")).toHaveValue("tls");
      await signInTo(page, "TLS listener (tls)");
      await expect(switcher.getByTestId("cluster-name")).toHaveText("TLS listener");
      await expect(page.getByRole("table", { name: "Brokers" })).toContainText(sslPort);

      // Both sessions are kept: switching back needs no sign-in.
      await switcher.getByLabel("Switch to cluster").selectOption({ label: "Plain listener" });
      await switcher.getByRole("button", { name: "Switch" }).click();
      await expect(switcher.getByTestId("cluster-name")).toHaveText("Plain listener");
      await expect(page.getByRole("table", { name: "Brokers" })).toContainText(plainPort);
      await expect(page.getByTestId("principal")).toHaveText("User:admin");
    },
  );

  test("each tab stays on its own cluster: the cluster is in every page's address", async ({ page, context }) => {
    await signInTo(page, "Plain listener (plain)");
    await expect(page).toHaveURL(/\/c\/plain$/);
    const other = await context.newPage();
    await signInTo(other, "TLS listener (tls)", "tls");
    await expect(other).toHaveURL(/\/c\/tls$/);

    // The first tab is still on its cluster after the second signed in elsewhere: links, reloads and the API calls its
    // pages make.
    const areas = page.getByRole("navigation", { name: "Areas" });
    await areas.getByRole("link", { name: "ACLs" }).click();
    await expect(page).toHaveURL(/\/c\/plain\/acls/);
    await areas.getByRole("link", { name: "Dashboard" }).click();
    await expect(page).toHaveURL(/\/c\/plain$/);
    await expect(page.getByTestId("cluster-name")).toHaveText("Plain listener");
    await expect(page.getByRole("table", { name: "Brokers" })).toContainText(plainPort);
    await page.reload();
    await expect(page.getByTestId("cluster-name")).toHaveText("Plain listener");
    const apiFrom = (p: Page) => p.evaluate(async () => JSON.stringify(await (await fetch("/api/v1/cluster")).json()));
    expect(await apiFrom(page)).toContain(`:${plainPort}`);
    expect(await apiFrom(page)).not.toContain(`:${sslPort}`);

    await other.getByRole("navigation", { name: "Areas" }).getByRole("link", { name: "Quotas" }).click();
    await expect(other).toHaveURL(/\/c\/tls\/quotas/);
    await expect(other.getByTestId("cluster-name")).toHaveText("TLS listener");
    expect(await apiFrom(other)).toContain(`:${sslPort}`);

    // An address without a cluster opens the cluster chosen last (the second tab's sign-in); an unknown one is not
    // found.
    await page.goto(`${instance.url}/acls`);
    await expect(page).toHaveURL(/\/c\/tls\/acls$/);
    expect((await page.request.get(`${instance.url}/c/nowhere/acls`)).status()).toBe(404);
    await other.close();
  });

  test("compare clusters: first a sign-in to the other cluster that comes back, then both sides side by side", async ({
    page,
  }) => {
    await signInTo(page, "Plain listener (plain)");
    await page.getByRole("link", { name: "Compare clusters" }).click();
    await expect(page).toHaveURL(/\/c\/plain\/compare$/);
    await page.getByLabel("Compare with").selectOption({ label: "TLS listener" });
    await page.getByLabel("Principal").fill("User:alice");
    await page.getByRole("button", { name: "Compare", exact: true }).click();
    await expect(page.getByTestId("compare-sign-in")).toContainText("You have no session on TLS listener");

    await page.getByRole("link", { name: "Sign in to TLS listener" }).click();
    await expect(page.getByLabel("Cluster")).toHaveValue("tls");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin-secret");
    await page.getByRole("button", { name: "Sign in" }).click();
    // Back on the comparison, on the first cluster: the two clusters are one broker here, so they agree.
    await expect(page).toHaveURL(/\/c\/plain\/compare\?other=tls&principal=User%3Aalice/);
    await expect(page.getByTestId("cluster-name")).toHaveText("Plain listener");
    await expect(page.getByTestId("compare-counts")).toContainText("on TLS listener");
    await expect(page.getByTestId("compare-same")).toBeVisible();
    await expect(page.getByRole("button", { name: /Preview the plan/ })).toHaveCount(0);
  });

  test("a mechanism the chosen cluster does not offer is refused on the field, naming what it offers", async ({
    page,
  }) => {
    await page.goto(`${instance.url}/sign-in`);
    await page.getByLabel("Cluster").selectOption({ label: "TLS listener (tls)" });
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("admin-secret");
    await page.getByLabel("Mechanism").selectOption("PLAIN");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Choose one of SCRAM-SHA-512")).toBeVisible();
  });
});
