import { requireViewer } from "@/lib/auth/current";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { getWebhookView, WEBHOOK_EVENTS } from "@/lib/services/webhooks";
import { DeleteWebhookButton, WebhookForm } from "./webhook-forms";

export const metadata = { title: "Notifications" };

const LEAD = "Where this cluster's requests and grants are announced: a webhook that receives Slack-compatible JSON.";

const ABOUT = (
  <p>
    Events: {WEBHOOK_EVENTS.join(", ")}. Each post is signed: X-KSC-Signature-256 is sha256= and the hex HMAC-SHA256 of
    the X-KSC-Timestamp header, a dot and the body, keyed with the signing secret. The URL must be https and resolve to
    public addresses only; redirects are not followed; failed posts are retried and recorded in the audit trail. No
    secret is ever part of a notification.
  </p>
);

export default async function WebhookPage() {
  const view = await getWebhookView(await requireViewer());
  return (
    <>
      <PageHeader title="Notifications" lead={LEAD} details={ABOUT} />
      {!view.ok ? (
        <Alert tone="warn" testId="webhook-denied">
          {view.message}
        </Alert>
      ) : (
        <>
          <p data-testid="webhook-state">
            {view.data.configured
              ? `Notifications go to ${view.data.target} (set by ${view.data.updatedBy} at ${view.data.updatedAt}).`
              : "Notifications are off."}
          </p>
          <WebhookForm />
          {view.data.configured && <DeleteWebhookButton />}
        </>
      )}
    </>
  );
}
