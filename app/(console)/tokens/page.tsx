import { requireViewer } from "@/lib/auth/current";

export const metadata = { title: "Tokens" };

export default async function Page() {
  await requireViewer();
  return (
    <>
      <h1>Tokens</h1>
      <p className="lead">Delegation tokens: issue for yourself or others (KIP-373), describe, renew and expire.</p>
      <div className="empty">This area is not built yet.</div>
    </>
  );
}
