import { requireViewer } from "@/lib/auth/current";

export const metadata = { title: "ACLs" };

export default async function Page() {
  await requireViewer();
  return (
    <>
      <h1>ACLs</h1>
      <p className="lead">Browse, create and delete ACLs, with a preview of each change's effect before it is applied.</p>
      <div className="empty">This area is not built yet.</div>
    </>
  );
}
