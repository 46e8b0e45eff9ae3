/**
 * Sessions: sign in with Kafka credentials, sign out. The definitions hold what both ways
 * in share (the audited sign-in and sign-out); the session cookie is the transport's part
 * (the server action sets it on the page's answer, the route on its JSON answer).
 */
import { z } from "zod";
import { sessionResponseSchema, signInSchema } from "@/lib/schemas/session";
import { defineChange, NO_INPUT } from "./definition";

export const signIn = defineChange({
  id: "session.sign-in",
  summary: "Sign in",
  description:
    "Sign in with Kafka credentials, proven by a SASL handshake with the broker; sets the `ksc_session` cookie " +
    "(httpOnly). " +
    "Failed sign-ins are throttled per user and address (429).",
  input: signInSchema,
  output: sessionResponseSchema,
  audit: {
    actions: ["session.sign-in"],
    target: "User:<username> (never the password; failures folded per client and username)",
  },
  plan: "none",
  public: true,
  http: {
    method: "post",
    path: "/api/v1/session",
    operationId: "signIn",
    area: "Session",
    bodyExamples: {
      placeholder: {
        summary: "Your Kafka user name and password (the mechanism defaults to SCRAM-SHA-512)",
        value: { username: "alice", password: "your-kafka-password", mechanism: "SCRAM-SHA-512" },
      },
    },
  },
});

export const signOut = defineChange({
  id: "session.sign-out",
  summary: "Sign out",
  description:
    "Wipes the session and its stored credential and clears the cookie. With Basic credentials there is no " +
    "session to end.",
  input: NO_INPUT,
  output: z.object({ signedOut: z.literal(true) }),
  audit: { actions: ["session.sign-out"], target: "the principal" },
  plan: "none",
  http: { method: "delete", path: "/api/v1/session", operationId: "signOut", area: "Session" },
});
