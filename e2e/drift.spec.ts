import { test, expect } from "./fixtures";
import { basic, behindTheConsolesBack, journalBegun, topicBinding } from "./behind-the-back";

/**
 * Drift (#20): an ACL created straight through Kafka's admin API (outside the console) appears on
 * the Drift page and the dashboard card after the journal's background read (every 10 s for the
 * e2e server: playwright.config.ts), with its window; reverting it makes a plan that deletes
 * exactly that binding, and once applied the change shows as reverted. Only this run's names are
 * looked at, so other spec files may change ACLs at the same time.
 */

const RUN = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
const TOPIC = `e2e-drift-${RUN}`;
const PRINCIPAL = `User:e2e-drift-${RUN}`;
const binding = (operation: string) => topicBinding(TOPIC, PRINCIPAL, operation);

test.afterAll(async () => {
  await behindTheConsolesBack("delete", [binding("READ"), binding("WRITE")]).catch(() => undefined);
});

test("an outside ACL appears on the Drift page after a read and is reverted through its plan", async ({
  adminPage: page,
  request,
}) => {
  test.setTimeout(240_000);
  // The journal records changes only once it has begun (its first read records the state, not changes).
  await journalBegun(request);

  await behindTheConsolesBack("create", [binding("READ"), binding("WRITE")]);
  const row = (operation: string) =>
    page.getByTestId("drift-entry").filter({ hasText: `${PRINCIPAL} ${operation} on TOPIC "${TOPIC}"` });
  await expect
    .poll(
      async () => {
        await page.goto("/drift?status=open");
        return row("WRITE").count();
      },
      { timeout: 90_000, intervals: [3_000] },
    )
    .toBe(1);
  await expect(page.getByRole("heading", { name: "What the journal cannot see" })).toBeVisible();
  await expect(page.getByTestId("drift-blind-spots")).toContainText("added and removed again between two reads");
  const group = page.getByTestId("drift-group").filter({ has: row("WRITE") });
  await expect(group.getByRole("heading", { level: 2 })).toHaveText(
    /Changed between \d\d:\d\d:\d\d and \d\d:\d\d:\d\d UTC on \d{4}-\d\d-\d\d/,
  );
  await expect(row("WRITE")).toContainText("open");
  await expect(row("WRITE")).toContainText(PRINCIPAL);

  // What it flipped: the principal's Access history over the read's window.
  await row("WRITE").getByRole("link", { name: "decisions it flipped" }).click();
  await expect(page.getByRole("row", { name: new RegExp(`^gained WRITE TOPIC ${TOPIC}`) })).toHaveCount(1);
  await expect(page.getByRole("row", { name: new RegExp(`^gained READ TOPIC ${TOPIC}`) })).toHaveCount(1);

  // The dashboard's card counts it among the open ones.
  await page.goto("/");
  const card = page.getByTestId("card-drift");
  await expect(card).toBeVisible();
  await expect(card.getByTestId("drift-open")).not.toHaveText(/^0/);

  // Revert the WRITE: a plan deleting exactly that binding, applied on the plan page.
  await page.goto("/drift?status=open");
  await row("WRITE")
    .getByRole("button", { name: /^Revert change/ })
    .click();
  await expect(page).toHaveURL(/\/plans\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: /^Apply/ }).click();
  await expect(page.getByText(/deleted|applied/i).first()).toBeVisible();

  const acls = await request.get(`/api/v1/acls?${new URLSearchParams({ principal: PRINCIPAL })}`, {
    headers: { Authorization: basic("admin") },
  });
  expect(acls.status()).toBe(200);
  const left = JSON.stringify(await acls.json());
  expect(left).toContain('"READ"');
  expect(left).not.toContain('"WRITE"');

  await page.goto("/drift");
  await expect(row("WRITE")).toContainText("reverted");
  await expect(row("READ")).toContainText("open");
});
