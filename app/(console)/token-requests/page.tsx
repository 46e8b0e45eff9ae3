import { requireViewer } from "@/lib/auth/current";

export const metadata = { title: "Token requests" };

export default async function Page() {
  await requireViewer();
  return (
    <>
      <h1>Token requests</h1>
      <p className="lead">Self-service token requests, approved by someone entitled to create tokens for the owner.</p>
      <div className="empty">This area is not built yet.</div>
    </>
  );
}
