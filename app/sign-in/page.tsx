import { redirect } from "next/navigation";
import { getViewer } from "@/lib/auth/current";
import { safeNextPath } from "@/lib/auth/safe-next";
import { SignInForm } from "./sign-in-form";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; ended?: string }> }) {
  if (await getViewer()) redirect("/");
  const { next, ended } = await searchParams;
  return (
    <div className="signin-wrap">
      <div className="card signin">
        <h1>Kafka Security Console</h1>
        <p className="lead">Sign in with your Kafka credentials. The console acts as you: it can never do more than your own ACLs allow.</p>
        {ended !== undefined && (
          <div role="status" className="alert info">
            Your session has ended: it expired, or Kafka no longer accepts your credential. Sign in again.
          </div>
        )}
        <SignInForm next={safeNextPath(next)} />
      </div>
    </div>
  );
}
