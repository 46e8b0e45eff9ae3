"use client";

import { Alert } from "@/components/ui/alert";
import { CopyField } from "@/components/ui/copy-button";

/**
 * A token's HMAC, shown once: it lives only in this component's props (the server
 * action's answer), not in the URL, a cookie, storage or the console's database.
 */
export function HmacOnce({ tokenId, hmac, owner }: { tokenId: string; hmac: string; owner: string }) {
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
      <CopyField id={`hmac-${tokenId}`} label="HMAC" value={hmac} testId="token-hmac" copyLabel="Copy HMAC" />
    </section>
  );
}
