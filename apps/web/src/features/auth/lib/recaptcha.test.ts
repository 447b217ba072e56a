import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../lib/api-client";
import { ChallengeDismissedError, runWithBotCheck } from "./recaptcha";

const config = { v3SiteKey: "v3-key", v2SiteKey: "v2-key", scriptUrl: "https://captcha.test/api.js" };
const botCheckFailure = () => new ApiError(491, "recaptcha-failed", "failed");

describe("runWithBotCheck", () => {
  it("sends no token when the deployment has no bot check", async () => {
    const request = vi.fn(async () => "ok");
    await expect(
      runWithBotCheck({ config: null, action: "login", request, challenge: vi.fn() }),
    ).resolves.toBe("ok");
    expect(request).toHaveBeenCalledWith({});
  });

  it("sends the invisible token first", async () => {
    const request = vi.fn(async () => "ok");
    const getV3Token = vi.fn(async () => "v3-token");
    await runWithBotCheck({ config, action: "login", request, challenge: vi.fn(), getV3Token });
    expect(getV3Token).toHaveBeenCalledWith(config, "login");
    expect(request).toHaveBeenCalledWith({ recaptchaToken: "v3-token", recaptchaType: "v3" });
  });

  it("re-runs the request with the visible challenge's token after a 491", async () => {
    const request = vi.fn().mockRejectedValueOnce(botCheckFailure()).mockResolvedValueOnce("ok");
    const challenge = vi.fn(async () => "v2-token");
    await expect(
      runWithBotCheck({ config, action: "signup", request, challenge, getV3Token: async () => "v3-token" }),
    ).resolves.toBe("ok");
    expect(challenge).toHaveBeenCalledOnce();
    expect(request).toHaveBeenLastCalledWith({ recaptchaToken: "v2-token", recaptchaType: "v2" });
  });

  it("lets a second 491 through for the form to report", async () => {
    const request = vi.fn().mockRejectedValue(botCheckFailure());
    await expect(
      runWithBotCheck({
        config,
        action: "login",
        request,
        challenge: async () => "v2-token",
        getV3Token: async () => "v3-token",
      }),
    ).rejects.toMatchObject({ status: 491 });
    expect(request).toHaveBeenCalledTimes(2);
  });

  it("abandons the request when the challenge is closed", async () => {
    const request = vi.fn().mockRejectedValueOnce(botCheckFailure());
    await expect(
      runWithBotCheck({
        config,
        action: "login",
        request,
        challenge: async () => null,
        getV3Token: async () => "v3-token",
      }),
    ).rejects.toBeInstanceOf(ChallengeDismissedError);
    expect(request).toHaveBeenCalledOnce();
  });

  it("does not escalate other failures", async () => {
    const challenge = vi.fn();
    const request = vi.fn().mockRejectedValue(new ApiError(401, "invalid-credentials", "no"));
    await expect(
      runWithBotCheck({ config, action: "login", request, challenge, getV3Token: async () => "t" }),
    ).rejects.toMatchObject({ status: 401 });
    expect(challenge).not.toHaveBeenCalled();
  });
});
