import { describe, expect, it } from "vitest";
import { draftFields } from "./form-draft";

describe("draftFields", () => {
  it("keeps what the user typed, never passwords, hidden fields, buttons or React's own fields", () => {
    const fields = draftFields(
      [
        ["owner", "User:svc-orders", "text"],
        ["reason", "nightly export", "textarea"],
        ["maxLifetimeUnit", "hours", "select"],
        ["hmac", "c2VjcmV0", "password"],
        ["id", "42", "hidden"],
        ["$ACTION_ID_abc", "", "hidden"],
        ["intent", "preview", "submit"],
        ["note", "x", "text"],
      ],
      ["note"],
    );
    expect(fields).toEqual({ owner: "User:svc-orders", reason: "nightly export", maxLifetimeUnit: "hours" });
  });
});
