"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";

/**
 * A token's HMAC, shown once: it lives only in this component's props (the server
 * action's answer), not in the URL, a cookie, storage or the console's database.
 */
export function HmacOnce({ tokenId, hmac, owner }: { tokenId: string; hmac: string; owner: string }) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(hmac);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <section className="card hmac-once" role="region" aria-label="New token HMAC" data-testid="hmac-once">
      <Alert tone="warn" role="alert" title="Copy the HMAC now: it will not be shown again.">
        The console does not keep it; after you leave or reload this page it is gone. It is the token&apos;s password
        (SCRAM username = token id, password = this HMAC, with tokenauth=true).
      </Alert>
      <p>
        Token{" "}
        <span className="mono" data-testid="hmac-token-id">
          {tokenId}
        </span>{" "}
        for <span className="mono">{owner}</span>
      </p>
      <Field id={`hmac-${tokenId}`} label="HMAC">
        <input
          readOnly
          value={hmac}
          className="mono"
          data-testid="token-hmac"
          onFocus={(e) => e.currentTarget.select()}
        />
      </Field>
      <div className="actions">
        <button type="button" className="btn secondary small" onClick={() => void copy()}>
          Copy HMAC
        </button>
        {copied === "yes" && <span className="muted">Copied.</span>}
        {copied === "failed" && <span className="muted">Copy failed: select the field and copy it by hand.</span>}
      </div>
    </section>
  );
}
