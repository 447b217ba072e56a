import { describe, expect, it } from "vitest";
import { emptyPermissions } from "../permissions";
import { allCalls, calls } from ".";
import { parseEmailList } from "./members";
import { sandboxConfirmSetupRequest, updateAutoRechargeRequest } from "./payments";
import { statisticsQueryDate } from "./statistics";

describe("call registry", () => {
  it("declares every call's access on the fields its request carries", () => {
    for (const call of allCalls) {
      const shape = (call.request as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      const access = call.access;
      expect(access.scope === "public", call.path).toBe(call.auth === "public");
      if (access.scope === "organization") expect(shape, call.path).toHaveProperty("organizationId");
      if (access.scope === "project") expect(shape, call.path).toHaveProperty("projectId");
      if (access.scope === "organization-projects") {
        expect(shape, call.path).toHaveProperty("organizationId");
        expect(shape, call.path).toHaveProperty("projectIds");
      }
      if (access.scope === "visible-projects") expect(shape, call.path).toHaveProperty("projectIds");
      if (access.scope === "record") expect(shape, call.path).toHaveProperty(access.idField);
      // A call naming an organization or a project is scoped to it (never "account", which would skip the gate).
      if (access.scope === "account") {
        expect(
          Object.keys(shape).filter((key) => key === "organizationId" || key === "projectId"),
          call.path,
        ).toEqual([]);
      }
    }
  });

  it("gives every call a unique /v1/ path", () => {
    const paths = allCalls.map((call) => call.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths) {
      expect(path).toMatch(/^\/v1\/[a-z0-9/-]+$/);
    }
  });

  it("covers both call tables of the spec", () => {
    // 37 calls of the console; 6 more of the playground (recharge, users/me and logout-all are shared);
    // the sandbox card form; the deployment's public configuration; the playground's feature status; an
    // API key's details (issue 17); account security (issue 19): 5 two-factor, 2 devices, 6 passkey calls,
    // the audit log and the organization's two-factor requirement; Home's Requests view, 7 webhook calls
    // and 2 alert calls (issue 18); re-authentication (issue 27): its options and proof, new recovery
    // codes and the passkey-added mail's removal link; per-call webhooks (issue 29): their secret, its
    // rotation and their deliveries; one call of the Requests view opened and Home's first steps (issue 33).
    expect(allCalls).toHaveLength(37 + 6 + 1 + 1 + 1 + 1 + 5 + 2 + 6 + 2 + 1 + 7 + 2 + 4 + 3 + 2);
    const areaCount = Object.values(calls).reduce((sum, area) => sum + Object.keys(area).length, 0);
    expect(areaCount).toBe(allCalls.length);
  });

  it("keeps public only the calls a signed-out visitor makes", () => {
    const publicPaths = allCalls.filter((call) => call.auth === "public").map((call) => call.path);
    expect(publicPaths.sort()).toEqual(
      [
        "/v1/users/login",
        "/v1/users/create",
        "/v1/users/confirm",
        "/v1/users/forgot-password",
        "/v1/users/reset-password",
        "/v1/users/google-login-request",
        "/v1/users/github-login-request",
        "/v1/users/organization-members/check-invitation",
        "/v1/payments/sandbox/confirm-setup",
        "/v1/public-config",
        // The second step of a sign-in, and signing in with a passkey.
        "/v1/users/two-factor/verify",
        "/v1/users/passkeys/authentication-options",
        "/v1/users/passkeys/sign-in",
        // The passkey-added mail's "it wasn't me" link, used signed out.
        "/v1/users/passkeys/remove-with-link",
      ].sort(),
    );
  });

  it("asks a recent sign-in proof for what a stolen session must not do (issue 27)", () => {
    const sensitive = allCalls.filter((call) => call.requiresReauthentication).map((call) => call.path);
    expect(sensitive.sort()).toEqual(
      [
        "/v1/users/passkeys/registration-options",
        "/v1/users/passkeys/register",
        "/v1/users/passkeys/remove",
        "/v1/users/change-password",
        "/v1/users/two-factor/start",
        "/v1/users/two-factor/enable",
        "/v1/users/two-factor/disable",
        "/v1/users/two-factor/regenerate-recovery-codes",
        "/v1/users/organizations/change-owner",
        "/v1/users/organizations/delete",
        "/v1/organizations/webhooks/insert",
        "/v1/organizations/webhooks/update",
        "/v1/organizations/webhooks/call-secret",
        "/v1/organizations/webhooks/rotate-call-secret",
      ].sort(),
    );
    for (const call of allCalls.filter((candidate) => candidate.requiresReauthentication)) {
      expect(call.auth).toBe("session");
    }
  });

  it("carries the spec's timeouts", () => {
    expect(calls.users.me.timeoutMs).toBe(5_000);
    expect(calls.users.logout.timeoutMs).toBe(5_000);
    expect(calls.projects.update.timeoutMs).toBe(5_000);
    expect(calls.projects.delete.timeoutMs).toBe(5_000);
    expect(calls.users.create.timeoutMs).toBe(10_000);
    expect(calls.users.confirm.timeoutMs).toBe(10_000);
    expect(calls.users.resetPassword.timeoutMs).toBe(10_000);
    expect(calls.users.googleLogin.timeoutMs).toBe(7_000);
    expect(calls.users.githubLogin.timeoutMs).toBe(7_000);
    expect(calls.statistics.get.timeoutMs).toBe(5_000);
  });
});

describe("request schemas", () => {
  it("normalises sign-in input", () => {
    expect(calls.users.login.request.parse({ email: "  Ann@Example.COM ", password: "x" })).toEqual({
      email: "ann@example.com",
      password: "x",
      rememberMe: false,
    });
    expect(calls.users.login.request.safeParse({ email: "nope", password: "x" }).success).toBe(false);
    expect(
      calls.users.login.request.safeParse({ email: "a@b.co", password: "x", recaptchaType: "v4" }).success,
    ).toBe(false);
  });

  it("applies the password rules to new passwords only", () => {
    const signUp = { firstName: "Ann", lastName: "Lee", email: "a@b.co" };
    expect(calls.users.create.request.safeParse({ ...signUp, password: "weak" }).success).toBe(false);
    expect(calls.users.create.request.safeParse({ ...signUp, password: "Strong1!" }).success).toBe(true);
    expect(
      calls.users.create.request.safeParse({ ...signUp, firstName: " ", password: "Strong1!" }).success,
    ).toBe(false);
  });

  it("enforces the 20 dollar minimum on recharges", () => {
    const recharge = calls.payments.rechargeAccount.request;
    expect(recharge.safeParse({ organizationId: "o", amount: 19.99 }).success).toBe(false);
    expect(recharge.safeParse({ organizationId: "o", amount: 20 }).success).toBe(true);
    expect(recharge.safeParse({ organizationId: "o", amount: 20.001 }).success).toBe(false);
  });

  it("lets auto recharge be turned off with the never-set zeros", () => {
    expect(
      updateAutoRechargeRequest.safeParse({ organizationId: "o", enabled: false, threshold: 0, amount: 0 })
        .success,
    ).toBe(true);
    expect(
      updateAutoRechargeRequest.safeParse({ organizationId: "o", enabled: true, threshold: 0, amount: 50 })
        .success,
    ).toBe(false);
    expect(
      updateAutoRechargeRequest.safeParse({ organizationId: "o", enabled: true, threshold: 20, amount: 50 })
        .success,
    ).toBe(true);
  });

  it("names empty API keys with the spec's placeholder", () => {
    expect(calls.apiKeys.insert.request.parse({ projectId: "p", apiKeyName: "  " }).apiKeyName).toBe(
      "- no name -",
    );
  });

  it("pages invoices from 1 and history from offset 0", () => {
    expect(calls.invoices.get.request.parse({ organizationId: "o" }).page).toBe(1);
    expect(calls.invoices.get.request.safeParse({ organizationId: "o", page: 0 }).success).toBe(false);
    const history = calls.playground.getRequests.request.parse({
      endpoint: "/v1/speech/transcription",
      projectId: "p",
    });
    expect(history.offset).toBe(0);
  });

  it("accepts invite lists separated by spaces or commas", () => {
    expect(parseEmailList("a@b.co  C@d.org,e@f.net")).toEqual(["a@b.co", "c@d.org", "e@f.net"]);
    expect(parseEmailList("a@b.co nope")).toBeNull();
    expect(parseEmailList("  ")).toBeNull();
    const invite = calls.members.invite.request;
    expect(
      invite.safeParse({ organizationId: "o", emailList: "a@b.co", permissions: emptyPermissions() }).success,
    ).toBe(true);
    expect(
      invite.safeParse({ organizationId: "o", emailList: "", permissions: emptyPermissions() }).success,
    ).toBe(false);
  });

  it("asks statistics for the first of a month at midnight UTC", () => {
    expect(statisticsQueryDate(2025, 3)).toBe("2025-03-01T00:00:00.000Z");
    const statistics = calls.statistics.get.request;
    expect(statistics.safeParse({ projectIds: ["p"], queryDate: "2025-03-01T00:00:00.000Z" }).success).toBe(
      true,
    );
    expect(statistics.safeParse({ projectIds: ["p"], queryDate: "2025-02-28T22:00:00.000Z" }).success).toBe(
      false,
    );
  });

  it("reads sandbox card data as card forms type it", () => {
    expect(
      sandboxConfirmSetupRequest.parse({
        clientSecret: "seti_secret",
        number: "4242 4242 4242 4242",
        expMonth: "12",
        expYear: "34",
        cvc: "123",
      }),
    ).toEqual({
      clientSecret: "seti_secret",
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2034,
      cvc: "123",
    });
  });
});
