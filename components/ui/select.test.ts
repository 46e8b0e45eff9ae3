import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { narrowedValue, operationsFor, Select } from "./select";

describe("operationsFor", () => {
  it("offers what kafka-acls.sh accepts on the chosen type, ALL first", () => {
    expect(operationsFor("TRANSACTIONAL_ID")).toEqual(["ALL", "DESCRIBE", "WRITE"]);
    expect(operationsFor("USER")).toEqual(["ALL", "CREATE_TOKENS", "DESCRIBE_TOKENS"]);
    expect(operationsFor("GROUP")).not.toContain("WRITE");
    expect(operationsFor("CLUSTER")).toContain("IDEMPOTENT_WRITE");
  });
  it("with no type yet, every operation once", () => {
    const all = operationsFor(null);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(expect.arrayContaining(["READ", "CREATE_TOKENS", "CLUSTER_ACTION", "IDEMPOTENT_WRITE"]));
  });
  it("narrowedValue keeps a value that is still valid, else the first option", () => {
    expect(narrowedValue(operationsFor("TOPIC"), "WRITE")).toBe("WRITE");
    expect(narrowedValue(operationsFor("GROUP"), "WRITE")).toBe("ALL");
  });
});

describe("Select", () => {
  it("renders the options with the default selected", () => {
    const html = renderToStaticMarkup(
      createElement(Select, {
        name: "unit",
        options: ["hours", { value: "days", label: "days (24 h)" }],
        defaultValue: "days",
      }),
    );
    expect(html).toContain('<option value="hours">hours</option>');
    expect(html).toContain('<option value="days" selected="">days (24 h)</option>');
  });
});
