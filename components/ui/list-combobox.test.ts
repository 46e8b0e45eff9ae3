import { describe, expect, it } from "vitest";
import { listSuggestions } from "./list-combobox";

describe("listSuggestions", () => {
  const principals = ["User:alice", "User:bob", "User:carol"];

  it("offers every suggestion for the first entry", () => {
    expect(listSuggestions(principals, "")).toEqual(principals);
    expect(listSuggestions(principals, "User:b")).toEqual(principals);
  });

  it("after a comma, offers the next entry after what is typed, leaving out those already listed", () => {
    expect(listSuggestions(principals, "User:bob,")).toEqual(["User:bob, User:alice", "User:bob, User:carol"]);
    expect(listSuggestions(principals, "User:bob, User:alice, User:c")).toEqual(["User:bob, User:alice, User:carol"]);
  });
});
