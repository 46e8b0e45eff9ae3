import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Combobox, rankSuggestions } from "./combobox";

describe("rankSuggestions", () => {
  const names = ["User:alice", "User:bob", "User:svc-orders", "User:svc-billing", "User:Alice", "User:bob"];
  it("prefix matches first, then the names that contain it, case-insensitively, without duplicates", () => {
    expect(rankSuggestions(names, "user:svc")).toEqual(["User:svc-orders", "User:svc-billing"]);
    expect(rankSuggestions(names, "orders")).toEqual(["User:svc-orders"]);
    expect(rankSuggestions(names, "alice")).toEqual(["User:alice", "User:Alice"]);
    expect(rankSuggestions(names, "")).toEqual([
      "User:alice",
      "User:bob",
      "User:svc-orders",
      "User:svc-billing",
      "User:Alice",
    ]);
  });
  it("at most the limit", () => {
    const many = Array.from({ length: 1000 }, (_, i) => `topic-${i}`);
    expect(rankSuggestions(many, "topic")).toHaveLength(200);
    expect(rankSuggestions(many, "topic-99", 3)).toEqual(["topic-99", "topic-990", "topic-991"]);
  });
});

describe("Combobox", () => {
  it("is an input tied to a datalist of the suggestions", () => {
    const html = renderToStaticMarkup(
      createElement(Combobox, { id: "acl-principal", name: "principal", suggestions: ["User:alice", "User:bob"] }),
    );
    expect(html).toContain('list="acl-principal-suggestions"');
    expect(html).toContain(
      '<datalist id="acl-principal-suggestions"><option value="User:alice"></option><option value="User:bob"></option></datalist>',
    );
  });
});
