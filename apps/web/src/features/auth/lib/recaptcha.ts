import type { PublicConfig, RecaptchaType } from "@prism/contract";
import { isApiError } from "../../../lib/api-client";

export type RecaptchaConfig = NonNullable<PublicConfig["recaptcha"]>;

/** What every bot-checked account call carries; empty when the deployment has no bot check. */
export interface BotCheckFields {
  recaptchaToken?: string;
  recaptchaType?: RecaptchaType;
}

/** The visible challenge was closed without being solved: the request is abandoned silently. */
export class ChallengeDismissedError extends Error {
  override readonly name = "ChallengeDismissedError";
}

/** No invisible token could be obtained (script blocked, offline): the generic "An error occurred..." message. */
export class RecaptchaUnavailableError extends Error {
  override readonly name = "RecaptchaUnavailableError";
}

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
  render(
    container: HTMLElement,
    parameters: {
      sitekey: string;
      callback: (token: string) => void;
      "expired-callback"?: () => void;
      "error-callback"?: () => void;
    },
  ): number;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

const SCRIPT_TIMEOUT_MS = 10_000;
let scriptPromise: Promise<Grecaptcha> | null = null;

/**
 * Adds the bot-check script once (a plain <script src>, which the CSP allows for the configured
 * origin) and resolves when it is ready. The v3 key goes in `render` so invisible checks can run;
 * the v2 checkbox is rendered explicitly when the challenge opens.
 */
export function loadRecaptcha(config: RecaptchaConfig): Promise<Grecaptcha> {
  if (scriptPromise) return scriptPromise;
  scriptPromise = new Promise<Grecaptcha>((resolve, reject) => {
    const url = new URL(config.scriptUrl, window.location.href);
    if (!url.searchParams.has("render")) url.searchParams.set("render", config.v3SiteKey);
    const script = document.createElement("script");
    script.src = url.toString();
    script.async = true;
    script.defer = true;
    const timer = window.setTimeout(
      () => reject(new RecaptchaUnavailableError("timeout")),
      SCRIPT_TIMEOUT_MS,
    );
    script.addEventListener("load", () => {
      const grecaptcha = window.grecaptcha;
      if (!grecaptcha) {
        window.clearTimeout(timer);
        reject(new RecaptchaUnavailableError("no grecaptcha"));
        return;
      }
      grecaptcha.ready(() => {
        window.clearTimeout(timer);
        resolve(grecaptcha);
      });
    });
    script.addEventListener("error", () => {
      window.clearTimeout(timer);
      reject(new RecaptchaUnavailableError("script failed"));
    });
    document.head.append(script);
  }).catch((error: unknown) => {
    // A failed load may be retried by the next request (the network may be back).
    scriptPromise = null;
    throw error;
  });
  return scriptPromise;
}

export async function executeRecaptchaV3(config: RecaptchaConfig, action: string): Promise<string> {
  try {
    const grecaptcha = await loadRecaptcha(config);
    const token = await grecaptcha.execute(config.v3SiteKey, { action });
    if (!token) throw new RecaptchaUnavailableError("empty token");
    return token;
  } catch (error) {
    throw error instanceof RecaptchaUnavailableError ? error : new RecaptchaUnavailableError(String(error));
  }
}

/**
 * Runs an account request behind the bot check: with an invisible (v3) token first;
 * on a 491 the visible (v2) challenge is shown and, once solved, the same request runs again with
 * its token. A second 491 is the caller's to report. Without a configured bot check no token is sent.
 */
export async function runWithBotCheck<T>(options: {
  config: RecaptchaConfig | null;
  action: string;
  request: (fields: BotCheckFields) => Promise<T>;
  /** Shows the visible challenge; resolves its token, or null when the user closed it. */
  challenge: () => Promise<string | null>;
  getV3Token?: (config: RecaptchaConfig, action: string) => Promise<string>;
}): Promise<T> {
  const { config, action, request, challenge, getV3Token = executeRecaptchaV3 } = options;
  if (!config) return request({});
  const token = await getV3Token(config, action);
  try {
    return await request({ recaptchaToken: token, recaptchaType: "v3" });
  } catch (error) {
    if (!isApiError(error) || error.status !== 491) throw error;
  }
  const v2Token = await challenge();
  if (v2Token === null) throw new ChallengeDismissedError("The security challenge was closed.");
  return request({ recaptchaToken: v2Token, recaptchaType: "v2" });
}
