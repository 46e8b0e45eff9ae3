import Link from "@/components/link";
import { requireViewer } from "@/lib/auth/current";
import { listTokens } from "@/lib/services/tokens";
import { aclSuggestions, userPrincipals } from "@/lib/services/acl-suggestions";
import { describeTokenFilter, tokenFilterOf } from "@/lib/services/token-view";
import { PageHeader, MoreInfo } from "@/components/ui/page-header";
import { PendingRequestsBadge } from "@/components/tokens/pending-badge";
import { HmacMemoryProvider } from "@/components/tokens/hmac-memory";
import { CreateTokenForm } from "./create-token-form";
import { TokenList } from "./token-list";

export const metadata = { title: "Tokens" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

export default async function TokensPage({ searchParams }: { searchParams: Promise<Search> }) {
  const viewer = await requireViewer();
  const [list, suggestions] = await Promise.all([listTokens(viewer), aclSuggestions(viewer)]);
  // The dashboard's numbers open the list filtered to what they counted (?role=owner|renewer, ?expiring=24h|7d).
  const filter = tokenFilterOf(await searchParams);
  const filtered = describeTokenFilter(filter);
  return (
    <>
      <PageHeader
        title="Tokens"
        lead={<>Delegation tokens Kafka shows you ({viewer.principal}): create, renew and expire them.</>}
        actions={<PendingRequestsBadge initial={null} />}
        details={
          <>
            <p>
              Listed: your own tokens, those you requested or may renew, and those of owners you have DESCRIBE_TOKENS
              on. You can issue tokens for yourself or, where Kafka allows it, for others (KIP-373).
            </p>
            <p>
              Cannot create for an owner? <Link href="/token-requests">Request a token</Link> and someone entitled
              approves it.
            </p>
          </>
        }
      />

      <HmacMemoryProvider>
        <h2>Create a token</h2>
        <CreateTokenForm viewer={viewer.principal} principals={userPrincipals(suggestions.principals)} />

        <h2>Tokens you can see</h2>
        <MoreInfo summary="Renewing and expiring">
          <p>
            HMACs are never listed. Renewing and expiring need the token&apos;s HMAC: Kafka identifies the token by it,
            and the console does not keep HMACs, so paste the one you received at creation (a token you just created on
            this page has its HMAC filled in until you leave or reload). Only the owner and the renewers may renew or
            expire a token (Kafka refuses anyone else), so only their rows offer it.
          </p>
        </MoreInfo>
        {filtered !== null && (
          <p className="row" data-testid="token-filter">
            <span>Showing {filtered}.</span>
            <Link href="/tokens">Show every token</Link>
          </p>
        )}
        <TokenList
          initial={list.ok ? list.data : null}
          initialError={list.ok ? null : list.message}
          viewer={viewer.principal}
          filter={filter}
        />
      </HmacMemoryProvider>
    </>
  );
}
