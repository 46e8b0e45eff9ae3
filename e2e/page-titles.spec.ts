import { test, expect } from "./fixtures";

/** Issue #17 item 14: a browser tab names the object its page shows, not only the kind of page. */
test("tab titles name the principal, the resource, the quota entity and the audit filter", async ({
  adminPage: page,
}) => {
  await page.goto("/principals/User%3Aalice");
  await expect(page).toHaveTitle("User:alice · Principal · Kafka Security Console");
  await page.goto("/resources?type=TOPIC&name=audit-log");
  await expect(page).toHaveTitle("TOPIC audit-log · Resource · Kafka Security Console");
  await page.goto("/quotas?user=svc-orders&clientId=orders-api");
  await expect(page).toHaveTitle("svc-orders orders-api · Quotas · Kafka Security Console");
  await page.goto("/audit?principal=User%3Aalice");
  await expect(page).toHaveTitle("User:alice · Audit · Kafka Security Console");
  // Without an object: the kind of page alone.
  await page.goto("/resources");
  await expect(page).toHaveTitle("Resources · Kafka Security Console");
});
