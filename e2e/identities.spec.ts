import { test, expect, DEMO_PASSWORD } from "./fixtures";
import { TestCertificates } from "../scripts/x500-name-harness";

/**
 * Identities against the dev broker: the Kafka documentation's SSL and Kerberos examples
 * mapped on the page, a PEM certificate made by openssl uploaded and its subject read as
 * Kafka reads it, rules a broker would refuse, and the access check asked about a client by
 * certificate DN or Kerberos principal (page and API). The demo ACLs (scripts/seed) let
 * alice READ orders.
 */

const SEED_SSL_RULES = [
  "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,",
  "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,",
  "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,",
  "DEFAULT",
].join("\n");

const certs = new TestCertificates();
test.afterAll(() => certs.dispose());

test.describe("Identities page", () => {
  test("maps the documentation's DNs and Kerberos principals, naming the rule or Kafka's exception", async ({
    adminPage: page,
  }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Areas" }).getByRole("link", { name: "Identities" }).click();
    await expect(page.getByRole("heading", { name: "Identities" })).toBeVisible();
    await page.getByLabel("ssl.principal.mapping.rules").fill(SEED_SSL_RULES);
    await page
      .getByLabel("sasl.kerberos.principal.to.local.rules")
      .fill("RULE:[1:$1@$0](.*@MYDOMAIN.COM)s/@.*//,DEFAULT");
    await page.getByLabel("Kerberos default realm").fill("OTHER.ORG");
    await page
      .getByLabel(/^Clients/)
      .fill(
        [
          "CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown",
          "CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown",
          "user@MYDOMAIN.COM",
          "bob@ELSEWHERE.COM",
        ].join("\n"),
      );
    await page.getByRole("button", { name: "Map" }).click();

    const rows = page.getByRole("table", { name: "Identities" }).getByTestId("identity-row");
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(0).getByTestId("principal")).toHaveText("User:serviceuser");
    await expect(rows.nth(0).getByTestId("rule")).toHaveText("rule 1: RULE:^CN=(.*?),OU=ServiceUsers.*$/$1");
    await expect(rows.nth(1).getByTestId("principal")).toHaveText("User:adminuser@admin");
    await expect(rows.nth(1).getByTestId("rule")).toContainText("rule 2:");
    await expect(rows.nth(2).getByTestId("principal")).toHaveText("User:user");
    await expect(rows.nth(3).getByTestId("error")).toContainText("NoMatchingRule: No rules apply to bob@ELSEWHERE.COM");
    await expect(rows.nth(3).getByTestId("error")).toContainText(
      "KafkaException: Failed to set name for 'bob@ELSEWHERE.COM' based on Kerberos authentication rules.",
    );
    await expect(page.getByTestId("parsed-rules")).toContainText("RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L, DEFAULT]");
  });

  test("takes an uploaded certificate's subject as Kafka sees it and shows what the principal may do", async ({
    adminPage: page,
  }) => {
    const { pem } = certs.make("/C=US/O=Acme/OU=Engineering/CN=Alice");
    await page.goto("/identities");
    await page.getByLabel("ssl.principal.mapping.rules").fill("RULE:^CN=([^,]+),.*$/$1/L");
    await page.getByLabel("Certificates (PEM)").setInputFiles(pem);
    await page.getByRole("button", { name: "Map" }).click();

    const row = page.getByTestId("identity-row");
    await expect(row).toHaveCount(1);
    // openssl prints C = US, O = Acme, ...; Java (and so Kafka) the other way round, without spaces.
    await expect(row).toContainText("CN=Alice,OU=Engineering,O=Acme,C=US");
    await expect(row.getByTestId("principal")).toHaveText("User:alice");
    await expect(row.getByTestId("access")).toContainText("TOPIC orders");
    await expect(row.getByTestId("access")).toContainText("may READ");
    await expect(row.getByRole("link", { name: "access check" })).toHaveAttribute("href", /principal=User%3Aalice/);
  });

  test("answers every client with the exception a broker would refuse to start with", async ({ adminPage: page }) => {
    await page.goto("/identities");
    await page.getByLabel("ssl.principal.mapping.rules").fill("RULE:^CN=(.*?/$1/");
    await page.getByLabel(/^Clients/).fill("CN=a,OU=b");
    await page.getByRole("button", { name: "Map" }).click();
    await expect(page.getByTestId("config-error")).toContainText(
      "ssl.principal.mapping.rules: a broker would refuse to start.",
    );
    await expect(page.getByTestId("config-error")).toContainText("PatternSyntaxException");
    await expect(page.getByTestId("identity-row").getByTestId("error")).toContainText("PatternSyntaxException");
  });

  test("refuses a file that is not a certificate, saying so", async ({ adminPage: page }) => {
    await page.goto("/identities");
    await page
      .getByLabel("Certificates (PEM)")
      .setInputFiles({ name: "notes.pem", mimeType: "application/x-pem-file", buffer: Buffer.from("hello") });
    await page.getByRole("button", { name: "Map" }).click();
    await expect(page.getByTestId("identity-row").getByTestId("error")).toContainText("Not a readable certificate");
  });
});

test.describe("Access check by certificate DN or Kerberos principal", () => {
  test("the page maps the client first and says so", async ({ adminPage: page }) => {
    await page.goto("/access-check");
    const form = page.getByRole("form", { name: "Access check" });
    await form.getByLabel("Client given as").selectOption("certificateDn");
    await form.getByLabel("Principal").fill("CN=alice, OU=Eng");
    await form.getByRole("combobox", { name: /^Resource name/ }).fill("orders");
    await page.getByRole("button", { name: "Check" }).click();
    // No rules configured for the dev broker: DEFAULT keeps the DN, written as Java writes it.
    await expect(page.getByTestId("mapping")).toContainText(
      "A client presenting certificate DN CN=alice, OU=Eng (which Kafka writes CN=alice,OU=Eng) is " +
        "User:CN=alice,OU=Eng to Kafka (rule DEFAULT",
    );
    await expect(page.getByTestId("decision")).toHaveText("DENIED");
  });

  test("the API maps a Kerberos principal and answers the decision for its principal", async ({ adminPage: page }) => {
    const response = await page.request.get(
      `/api/v1/access-check?${new URLSearchParams({
        kerberosPrincipal: "alice",
        operation: "READ",
        resourceType: "TOPIC",
        resourceName: "orders",
      })}`,
    );
    expect(response.status()).toBe(200);
    const body = await response.json();
    expect(body.request.principal).toBe("User:alice");
    expect(body.decision).toBe("ALLOWED");
    expect(body.mapping).toMatchObject({ kind: "kerberos", input: "alice", principal: "User:alice", rule: null });

    const refused = await page.request.get(
      `/api/v1/access-check?${new URLSearchParams({
        kerberosPrincipal: "alice@NOT.THE.REALM",
        operation: "READ",
        resourceType: "TOPIC",
        resourceName: "orders",
      })}`,
    );
    expect(refused.status()).toBe(400);
    expect((await refused.json()).fieldErrors.kerberosPrincipal[0]).toContain("NoMatchingRule");
  });
});

test.describe("Rules that backtrack", () => {
  test("are refused quickly with 422 naming the limit, and do not hold up anyone else's requests", async ({
    request,
    adminPage: page,
  }) => {
    // Each match backtracks ~1.8 million steps: 1,050 rules x 100 DNs once held the server for minutes.
    const data = {
      sslRules: Array<string>(1050).fill("RULE:^(.*a){5}$/x/").join(","),
      inputs: Array.from({ length: 100 }, () => ({ type: "ssl", distinguishedName: `${"a".repeat(40)}!` })),
    };
    const alice = { authorization: `Basic ${Buffer.from(`alice:${DEMO_PASSWORD("alice")}`).toString("base64")}` };
    // Warm up: sign-in and the route's first compile are not what is measured.
    expect((await page.request.get("/api/v1/openapi.json")).status()).toBe(200);
    expect(
      (
        await request.post("/api/v1/identities/map", {
          headers: alice,
          data: { ...data, inputs: data.inputs.slice(0, 1) },
        })
      ).status(),
    ).toBe(422);

    let mapping = true;
    let slowest = 0;
    const someoneElse = (async () => {
      while (mapping) {
        const started = Date.now();
        expect((await page.request.get("/api/v1/openapi.json")).status()).toBe(200);
        slowest = Math.max(slowest, Date.now() - started);
      }
    })();
    const started = Date.now();
    const answers = await Promise.all(
      [0, 1, 2].map(() => request.post("/api/v1/identities/map", { headers: alice, data })),
    );
    const took = Date.now() - started;
    mapping = false;
    await someoneElse;
    for (const answer of answers) {
      expect(answer.status()).toBe(422);
      expect(answer.headers()["cache-control"]).toBe("no-store");
      const body = (await answer.json()) as { code: string; error: string };
      expect(body.code).toBe("RULES_TOO_COSTLY");
      expect(body.error).toMatch(/more than 3,000,000 regex steps|longer than 150 ms/);
    }
    expect(took).toBeLessThan(5_000);
    expect(slowest).toBeLessThan(2_000);
  });

  test("the Identities page says which limit the rules ran into", async ({ adminPage: page }) => {
    await page.goto("/identities");
    await page.getByLabel("ssl.principal.mapping.rules").fill(Array<string>(10).fill("RULE:^(.*a){5}$/x/").join(",\n"));
    await page.getByLabel(/^Clients/).fill(
      Array<string>(10)
        .fill(`${"a".repeat(40)}!`)
        .join("\n"),
    );
    await page.getByLabel("Read lines as").selectOption("ssl");
    await page.getByRole("button", { name: "Map" }).click();
    await expect(page.getByTestId("identities-error")).toContainText(
      /more than 3,000,000 regex steps|longer than 150 ms/,
    );
  });
});
