import { readFile } from "node:fs/promises";
import { test, expect } from "./fixtures";
import { basic, behindTheConsolesBack, journalBegun, topicBinding } from "./behind-the-back";

/**
 * "What changed for alice" (#20): once the history journal has begun, an ACL for alice created
 * outside the console (Kafka's Admin client) and one created through the console's API show on
 * her Access history page as decisions gained, the outside one with the read's window, the
 * console's with its actor; the CSV export has a row per decision with the same causes. Only this
 * run's topic is looked at, so other spec files may change ACLs at the same time.
 */

const RUN = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
const TOPIC = `e2e-history-${RUN}`;
const binding = (operation: string) => topicBinding(TOPIC, "User:alice", operation);

test.afterAll(async () => {
  await behindTheConsolesBack("delete", [binding("READ"), binding("WRITE")]).catch(() => undefined);
});

test("alice's access history lists an outside and a console gain, and its CSV has them", async ({
  adminPage: page,
  request,
}) => {
  test.setTimeout(240_000);
  await journalBegun(request);
  await page.waitForTimeout(1_100);
  const from = new Date().toISOString();

  await behindTheConsolesBack("create", [binding("READ")]);
  const created = await request.post("/api/v1/acls", {
    headers: { Authorization: basic("admin") },
    data: { bindings: [binding("WRITE")] },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);

  const history = `/principals/${encodeURIComponent("User:alice")}/history?${new URLSearchParams({ from })}`;
  const step = (origin: RegExp) =>
    page
      .getByTestId("history-step")
      .filter({ hasText: origin })
      .filter({ has: page.getByTestId("history-decision").filter({ hasText: TOPIC }) });
  // The outside change is known after the next background read (every 10 s on the e2e server).
  await expect
    .poll(
      async () => {
        await page.goto(history);
        return step(/outside the console/).count();
      },
      { timeout: 90_000, intervals: [3_000] },
    )
    .toBeGreaterThan(0);
  const outside = step(/outside the console/);
  await expect(outside.getByRole("heading", { level: 2 })).toContainText(
    /between \d\d:\d\d:\d\d and \d\d:\d\d:\d\d UTC/,
  );
  // A row per decision: its name starts with the change, the operation and the resource.
  const decision = (change: string, operation: string) =>
    page.getByRole("row", { name: new RegExp(`^${change} ${operation} TOPIC ${TOPIC}`) });
  await expect(outside.filter({ has: decision("gained", "READ") })).toHaveCount(1);
  const byConsole = step(/by User:admin/);
  await expect(byConsole.filter({ has: decision("gained", "WRITE") })).toHaveCount(1);

  // Her timeline: the two ACLs, one made through the console by admin, one found outside.
  await page.getByTestId("principal-timeline-link").click();
  const entry = (operation: string) =>
    page.getByTestId("timeline-entry").filter({ hasText: `User:alice ${operation} on TOPIC "${TOPIC}"` });
  await expect(entry("WRITE")).toContainText("User:admin through the console");
  await expect(entry("READ")).toContainText("outside");
  // The same two from the resource's page: the history of the ACLs on its exact name.
  await page.goto(`/resources?${new URLSearchParams({ type: "TOPIC", name: TOPIC })}`);
  await page.locator('section[data-reason="literal"]').getByTestId("resource-timeline-link").click();
  await expect(entry("WRITE")).toContainText("User:admin through the console");
  await expect(entry("READ")).toContainText("outside");
  // One ACL row's history, from the ACL list: that binding's entries only.
  await page.goto(`/acls?${new URLSearchParams({ principal: "User:alice", resourceName: TOPIC, operation: "WRITE" })}`);
  await page
    .getByRole("link", { name: `History of ALLOW User:alice WRITE on TOPIC ${TOPIC} (LITERAL) from *` })
    .click();
  await expect(page.getByTestId("timeline-entry")).toHaveCount(1);
  await expect(entry("WRITE")).toContainText("User:admin through the console");
  await page.goto(history);

  // Her principal page as of the period's start and end (from the journal): WRITE on the topic gained.
  const writeCell = page.getByRole("row", { name: new RegExp(`^${TOPIC}\\b`) }).locator('[data-operation="WRITE"]');
  await page.getByTestId("history-page-as-of-end").click();
  await expect(page.getByTestId("acl-snapshot")).toContainText("From the history journal");
  await expect(writeCell).toHaveAttribute("data-decision", "ALLOWED");
  await page.goBack();
  await page.getByTestId("history-page-as-of-start").click();
  await expect(page.getByTestId("acl-snapshot")).toContainText("From the history journal");
  await expect(writeCell).toHaveCount(0);
  await page.goBack();

  // What alice could do as of the period's end, from the journal: the auditor export with at=.
  const asOf = await page
    .getByRole("link", { name: /^Export what User:alice could do as of .* as CSV$/ })
    .last()
    .getAttribute("href");
  const exported = await request.get(asOf!, { headers: { Authorization: basic("admin") } });
  expect(exported.status(), await exported.text()).toBe(200);
  expect(await exported.text()).toContain(TOPIC);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export what changed for User:alice as CSV" }).click();
  const file = await (await download).path();
  const rows = (await readFile(file, "utf8")).split("\r\n");
  expect(rows[0]).toMatch(/^window_from,window_to,origin,actor,plan_id,change,resource_type,/);
  const mine = rows.filter((r) => r.includes(`,TOPIC,LITERAL,${TOPIC},`));
  expect(mine.find((r) => r.includes(`,gained,TOPIC,LITERAL,${TOPIC},READ,DENIED,ALLOWED,`))).toMatch(
    /^[^,]+,[^,]+,outside,,,/,
  );
  expect(mine.find((r) => r.includes(`,gained,TOPIC,LITERAL,${TOPIC},WRITE,DENIED,ALLOWED,`))).toMatch(
    /^[^,]+,[^,]+,console,User:admin,/,
  );
});
