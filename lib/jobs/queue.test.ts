import { describe, expect, it } from "vitest";
import { jobErrorText } from "./queue";

describe("jobErrorText", () => {
  it("says what pg-boss reported, whether an Error or a plain object, never [object Object]", () => {
    expect(jobErrorText(new Error("timeout exceeded when trying to connect"))).toBe(
      "timeout exceeded when trying to connect",
    );
    expect(jobErrorText({ message: "Connection terminated", queue: "sweep", worker: "w1" })).toBe(
      "sweep: Connection terminated",
    );
    expect(jobErrorText({ code: "57P01" })).toBe('{"code":"57P01"}');
    expect(jobErrorText("plain")).toBe("plain");
  });
});
