import { requireViewer } from "@/lib/auth/current";

export const metadata = { title: "Access check" };

export default async function Page() {
  await requireViewer();
  return (
    <>
      <h1>Access check</h1>
      <p className="lead">Why principal P may or may not do operation O on resource R from host H.</p>
      <div className="empty">This area is not built yet.</div>
    </>
  );
}
