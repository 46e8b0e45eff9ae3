import { requireViewer } from "@/lib/auth/current";

export const metadata = { title: "Resources" };

export default async function Page() {
  await requireViewer();
  return (
    <>
      <h1>Resources</h1>
      <p className="lead">Topics, consumer groups, transactional ids, the cluster, users and tokens, with the ACLs that apply to each.</p>
      <div className="empty">This area is not built yet.</div>
    </>
  );
}
