import Link from "next/link";
import { requireViewer } from "@/lib/auth/current";
import { listTokens } from "@/lib/services/tokens";
import { expiryPhrase, formatRelative } from "@/lib/services/token-view";
import type { TokenView } from "@/lib/schemas/tokens";
import { CreateTokenForm } from "./create-token-form";
import { TokenExpiryForms } from "./token-expiry-forms";

export const metadata = { title: "Tokens" };
export const dynamic = "force-dynamic";

function When({ at, now }: { at: number; now: number }) {
  return (
    <>
      <div>{formatRelative(at, now)}</div>
      <div className="muted mono">{new Date(at).toISOString().replace(".000Z", "Z")}</div>
    </>
  );
}

export default async function TokensPage() {
  const viewer = await requireViewer();
  const list = await listTokens(viewer);
  return (
    <>
      <h1>Tokens</h1>
      <p className="lead">
        Delegation tokens as Kafka describes them to you ({viewer.principal}): your own, those you requested or may renew, and those of owners you
        have DESCRIBE_TOKENS on. Issue tokens for yourself or, where Kafka allows it, for others (KIP-373); renew and expire them.
      </p>

      <h2>Create a token</h2>
      <CreateTokenForm viewer={viewer.principal} />
      <p className="muted">
        Cannot create for an owner? <Link href="/token-requests">Request a token</Link> and someone entitled approves it.
      </p>

      <h2>Tokens you can see</h2>
      <p className="muted">
        HMACs are never listed. Renewing and expiring need the token&apos;s HMAC: Kafka identifies the token by it, and the console does not keep
        HMACs, so paste the one you received at creation. Only the owner and the renewers may renew or expire a token (Kafka refuses anyone else).
      </p>
      {!list.ok ? (
        <div role="alert" className="alert error" data-testid="tokens-error">
          {list.message}
        </div>
      ) : list.data.tokens.length === 0 ? (
        <div className="empty">No delegation token you may see.</div>
      ) : (
        <TokenTable tokens={list.data.tokens} now={list.data.now} />
      )}
    </>
  );
}

function TokenTable({ tokens, now }: { tokens: TokenView[]; now: number }) {
  return (
    <div className="table-scroll">
      <table className="data" aria-label="Delegation tokens">
        <thead>
          <tr>
            <th>Token id</th>
            <th>Owner</th>
            <th>Requester</th>
            <th>Renewers</th>
            <th>Issued</th>
            <th>Expiry</th>
            <th>Max</th>
            <th>Status</th>
          </tr>
        </thead>
        {tokens.map((t) => (
          <tbody key={t.tokenId} data-token-id={t.tokenId}>
            <tr>
              <td className="mono">{t.tokenId}</td>
              <td className="mono">{t.owner}</td>
              <td className="mono">{t.requester}</td>
              <td className="mono">{t.renewers.length ? t.renewers.join(", ") : <span className="muted">none</span>}</td>
              <td>
                <When at={t.issueTimestamp} now={now} />
              </td>
              <td>
                <div>{expiryPhrase(t, now)}</div>
                <div className="muted mono">{new Date(t.expiryTimestamp).toISOString().replace(".000Z", "Z")}</div>
              </td>
              <td>
                <When at={t.maxTimestamp} now={now} />
              </td>
              <td>
                <span className={`badge ${t.status === "expired" ? "failure" : "success"}`}>{t.status}</span>
                {!t.mayRenew && <div className="muted">you may not renew</div>}
              </td>
            </tr>
            <tr>
              <td colSpan={8}>
                <details>
                  <summary>Renew or expire {t.tokenId}</summary>
                  <TokenExpiryForms tokenId={t.tokenId} />
                </details>
              </td>
            </tr>
          </tbody>
        ))}
      </table>
    </div>
  );
}
