import { z } from "zod";
import { defineCall } from "../define-call";

/**
 * What the browser needs to know about this deployment before anyone signs in: which sign-in
 * providers and bot check are configured (their public identifiers only), which payments provider
 * runs, and whether this is production (the spec hides some controls there). Secrets never appear.
 */
export const publicConfigRequest = z.object({});
export const publicConfigResponse = z.object({
  appEnv: z.enum(["development", "test", "production"]),
  productName: z.string(),
  recaptcha: z
    .object({
      /** Invisible check (v3). */
      v3SiteKey: z.string(),
      /** Visible challenge (v2 checkbox), shown after a failed invisible check. */
      v2SiteKey: z.string(),
      /** Where the browser loads the reCAPTCHA script from. */
      scriptUrl: z.string(),
    })
    .nullable(),
  /** Google Identity Services client id; null hides the Google button. */
  googleClientId: z.string().nullable(),
  github: z
    .object({
      clientId: z.string(),
      /** GitHub's authorize endpoint (configurable for tests and GitHub Enterprise). */
      authorizeUrl: z.string(),
    })
    .nullable(),
  payments: z.object({
    provider: z.enum(["sandbox", "stripe"]),
    /** Stripe's publishable key when the provider is stripe. */
    publishableKey: z.string().nullable(),
  }),
  /** Whether the development mailbox (/dev/mailbox.html) is available. */
  devMailbox: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigResponse>;
export const publicConfigCall = defineCall({
  path: "/v1/public-config",
  auth: "public",
  access: { scope: "public" },
  request: publicConfigRequest,
  response: publicConfigResponse,
  timeoutMs: 5_000,
});

export const systemCalls = {
  publicConfig: publicConfigCall,
} as const;
