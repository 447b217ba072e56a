import { describe, expect, it } from "vitest";
import { routesOf } from "./call-routes";
import { callRoutes } from "./call-routes.generated";
import { calls } from "./calls";

describe("callRoutes", () => {
  it("is the call registry's routes (else run `npm run generate -w @prism/contract`)", () => {
    expect(callRoutes).toEqual(routesOf(calls));
  });

  it("keeps only what a client sends by: path, sign-in kind and timeout", () => {
    expect(callRoutes.users.login).toEqual({ path: "/v1/users/login", auth: "public" });
    expect(callRoutes.users.create).toEqual({
      path: calls.users.create.path,
      auth: "public",
      timeoutMs: calls.users.create.timeoutMs,
    });
    const leaves = Object.values(callRoutes).flatMap((area) => Object.values(area));
    for (const route of leaves)
      expect(Object.keys(route).sort()).toEqual(expect.arrayContaining(["auth", "path"]));
    expect(new Set(leaves.flatMap((route) => Object.keys(route)))).toEqual(
      new Set(["path", "auth", "timeoutMs"]),
    );
  });
});
