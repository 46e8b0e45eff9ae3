import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { controlAria, errorList, Field } from "./field";

describe("Field", () => {
  it("wires the label, the hint and the errors to the control", () => {
    const html = renderToStaticMarkup(
      createElement(Field, {
        id: "tr-owner",
        label: "Owner",
        hint: "User:<name>",
        errors: ["Enter a principal.", "Not User:*."],
        children: createElement("input", { name: "owner" }),
      }),
    );
    expect(html).toContain('<label for="tr-owner">Owner</label>');
    expect(html).toContain('id="tr-owner"');
    expect(html).toContain('aria-describedby="tr-owner-hint tr-owner-error"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('<span id="tr-owner-error" class="field-error">Enter a principal. Not User:*.</span>');
    expect(html).toContain('<span id="tr-owner-hint" class="hint">User:&lt;name&gt;</span>');
  });

  it("without errors the control is neither invalid nor described by an error that is not there", () => {
    const html = renderToStaticMarkup(
      createElement(Field, { id: "x", label: "X", children: createElement("input", { name: "x" }) }),
    );
    expect(html).not.toContain("aria-invalid");
    expect(html).not.toContain("aria-describedby");
    expect(html).not.toContain("field-error");
  });

  it("errorList drops blank messages and accepts one string", () => {
    expect(errorList(undefined)).toEqual([]);
    expect(errorList("Required.")).toEqual(["Required."]);
    expect(errorList(["", " ", "Too long."])).toEqual(["Too long."]);
    expect(controlAria("a", false, 1)).toEqual({ id: "a", "aria-describedby": "a-error", "aria-invalid": true });
  });
});
