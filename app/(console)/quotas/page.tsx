import { requireViewer } from "@/lib/auth/current";

export const metadata = { title: "Quotas" };

export default async function Page() {
  await requireViewer();
  return (
    <>
      <h1>Quotas</h1>
      <p className="lead">User, client-id, user+client-id, default and IP quotas; the KIP-55 budget and what Kafka actually applies.</p>
      <div className="empty">This area is not built yet.</div>
    </>
  );
}
