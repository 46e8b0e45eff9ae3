import { test, expect } from "./fixtures";
import { basic, behindTheConsolesBack, journalBegun, topicBinding } from "./behind-the-back";

/**
 * Time travel on the Access check (#20): once the history journal has begun, an ACL created
 * through the console's API flips the answer "as of" an instant after it, not before; the page
 * says what the answer rests on; an instant before the journal began is refused on its field.
 * Only this run's names are looked at, so other spec files may change ACLs at the same time.
 */

const RUN = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
const TOPIC = `e2e-asof-${RUN}`;
const PRINCIPAL = `User:e2e-asof-${RUN}`;
const READ = topicBinding(TOPIC, PRINCIPAL, "READ");

test.afterAll(async () => {
  await behindTheConsolesBack("delete", [READ]).catch(() => undefined);
});

const check = (at: string) =>
  `/access-check?${new URLSearchParams({
    principal: PRINCIPAL,
    operation: "READ",
    resourceType: "TOPIC",
    resourceName: TOPIC,
    at,
  })}`;

test("the Access check as of before and after an ACL was created, and before the journal began", async ({
  adminPage: page,
  request,
}) => {
  test.setTimeout(180_000);
  const since = await journalBegun(request);

  await page.waitForTimeout(1_100);
  const before = new Date().toISOString();
  await page.waitForTimeout(1_100);
  const created = await request.post("/api/v1/acls", {
    headers: { Authorization: basic("admin") },
    data: { bindings: [READ] },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  await page.waitForTimeout(1_100);
  const after = new Date().toISOString();

  await page.goto(check(before));
  await expect(page.getByTestId("decision")).toHaveText("DENIED");
  await expect(page.getByTestId("as-of")).toContainText(`As of ${before.replace(/\.\d{3}Z$/, "")}`);
  await expect(page.getByLabel("As of")).toHaveValue(before);

  await page.goto(check(after));
  await expect(page.getByTestId("decision")).toHaveText("ALLOWED");
  await expect(page.getByTestId("as-of")).toBeVisible();

  // Now, from Kafka: no "as of" note.
  await page.goto(check(""));
  await expect(page.getByTestId("decision")).toHaveText("ALLOWED");
  await expect(page.getByTestId("as-of")).toHaveCount(0);

  const beforeJournal = new Date(Date.parse(since) - 86_400_000).toISOString();
  const api = await request.get(
    `/api/v1/access-check?${new URLSearchParams({
      principal: PRINCIPAL,
      operation: "READ",
      resourceType: "TOPIC",
      resourceName: TOPIC,
      at: beforeJournal,
    })}`,
    { headers: { Authorization: basic("admin") } },
  );
  expect(api.status()).toBe(400);
  expect(await api.json()).toMatchObject({ fieldErrors: { at: [expect.stringMatching(/begins at/)] } });
});
