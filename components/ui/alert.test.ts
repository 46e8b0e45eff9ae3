import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ResultPanel, unshownFieldErrors } from "./alert";
import type { ActionResult } from "@/lib/schemas/result";

describe("ResultPanel", () => {
  it("nothing before a submission", () => {
    expect(renderToStaticMarkup(createElement(ResultPanel, { result: null }))).toBe("");
  });
  it("an error is an alert with the message and the field errors no field shows", () => {
    const result: ActionResult<number> = {
      ok: false,
      code: "VALIDATION",
      message: "Check the highlighted fields.",
      fieldErrors: { owner: ["Enter a principal."], _: ["Too many fields."] },
    };
    const html = renderToStaticMarkup(
      createElement(ResultPanel<number>, { result, testId: "x", shownFields: ["owner"] }),
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('data-testid="x-error"');
    expect(html).toContain("Check the highlighted fields.");
    expect(html).toContain("<li>Too many fields.</li>");
    expect(html).not.toContain("Enter a principal.");
  });
  it("an ended session links to the sign-in", () => {
    const html = renderToStaticMarkup(
      createElement(ResultPanel<number>, { result: { ok: false, code: "UNAUTHENTICATED", message: "Sign in first." } }),
    );
    expect(html).toContain('href="/sign-in"');
  });
  it("a success renders what the page says about it, as a status", () => {
    const html = renderToStaticMarkup(
      createElement(ResultPanel<number>, {
        result: { ok: true, data: 3 },
        success: (n: number) => `${n} created`,
        testId: "x",
      }),
    );
    expect(html).toContain('role="status"');
    expect(html).toContain('data-testid="x-done"');
    expect(html).toContain("3 created");
  });
  it("unshownFieldErrors names the field", () => {
    expect(
      unshownFieldErrors({ ok: false, code: "VALIDATION", message: "m", fieldErrors: { "entity.user": ["Bad."] } }),
    ).toEqual(["entity.user: Bad."]);
  });
});
