/**
 * The policy core: pure TypeScript, no I/O, no clock. One export line per module;
 * the quota and token modules add their own lines.
 */
export * from "./types";
export * from "./acl";
export * from "./quota";
export * from "./token";
export * from "./crypto";
export * from "./identity";
export * from "./json-depth";
