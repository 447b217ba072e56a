export * from "./define-call";
export * from "./errors";
