/** The journal's policy core (#20): canonical keys, states, differences, the state at an instant. */
export * from "./keys";
export * from "./state";
export * from "./record";
export * from "./principal";
export * from "./read-memory";
