import type { AppConfig } from "../../config";

export type BotCheckKind = "v3" | "v2";

export interface BotCheck {
  readonly enabled: boolean;
  /** True when the token proves a human (v2) or a good enough score (v3). */
  verify(input: { token: string | undefined; kind: BotCheckKind | undefined; ip: string }): Promise<boolean>;
}

/** The embedded default: no bot check (local development, private deployments). */
export const noBotCheck: BotCheck = {
  enabled: false,
  verify: async () => true,
};

interface SiteVerifyAnswer {
  success?: boolean;
  score?: number;
  "error-codes"?: string[];
}

/**
 * Google reCAPTCHA: the invisible v3 check with a score threshold, and the visible v2 challenge the
 * client escalates to after a v3 failure. Verified server-side against the siteverify endpoint
 * (configurable, so tests run a local one).
 */
export function createRecaptchaBotCheck(recaptcha: NonNullable<AppConfig["recaptcha"]>): BotCheck {
  return {
    enabled: true,
    async verify({ token, kind, ip }) {
      if (!token || token.length > 4096) return false;
      const secret = kind === "v2" ? recaptcha.v2SecretKey : recaptcha.v3SecretKey;
      let answer: SiteVerifyAnswer;
      try {
        const response = await fetch(recaptcha.verifyUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ secret, response: token, remoteip: ip }),
          signal: AbortSignal.timeout(5_000),
        });
        if (!response.ok) return false;
        answer = (await response.json()) as SiteVerifyAnswer;
      } catch {
        // An unreachable verifier must not let bots through; the user can retry.
        return false;
      }
      if (answer.success !== true) return false;
      if (kind === "v2") return true;
      return typeof answer.score === "number" && answer.score >= recaptcha.minScore;
    },
  };
}
