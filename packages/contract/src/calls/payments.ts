import { z } from "zod";
import { CARD_NUMBER_MAX_DIGITS, CARD_NUMBER_MIN_DIGITS } from "../cards";
import { defineCall } from "../define-call";
import { autorechargeSchema, paymentInfoSchema } from "../entities";
import { emptyResponse, idSchema, rechargeUsdSchema, tokenSchema } from "../fields";
import { MIN_RECHARGE_USD } from "../limits";
import { CARD_NUMBER_INVALID, CARD_SECURITY_CODE_INVALID } from "../messages";

/** Payment method, auto recharge and recharge, plus the sandbox provider's card form. */

export const getPaymentInfoRequest = z.object({
  organizationId: idSchema,
});
/** `payment` is `{}` when no card is saved; `autorecharge` has the defaults when none was ever set. */
export const getPaymentInfoResponse = z.object({
  payment: paymentInfoSchema,
  autorecharge: autorechargeSchema,
});
export const getPaymentInfoCall = defineCall({
  path: "/v1/payments/get-payment-info",
  auth: "session",
  access: { scope: "organization", permission: "organization.payments" },
  request: getPaymentInfoRequest,
  response: getPaymentInfoResponse,
});

export const startSetupPaymentRequest = z.object({
  organizationId: idSchema,
});
/** The provider's setup-intent secret the card form confirms. */
export const startSetupPaymentResponse = z.object({
  clientSecret: z.string(),
});
export const startSetupPaymentCall = defineCall({
  path: "/v1/payments/start-setup-payment",
  auth: "session",
  access: { scope: "organization", permission: "organization.payments" },
  request: startSetupPaymentRequest,
  response: startSetupPaymentResponse,
});

export const finishSetupPaymentRequest = z.object({
  setupIntentId: tokenSchema,
  organizationId: idSchema,
});
export const finishSetupPaymentResponse = emptyResponse;
export const finishSetupPaymentCall = defineCall({
  path: "/v1/payments/finish-setup-payment",
  auth: "session",
  access: { scope: "organization", permission: "organization.payments" },
  request: finishSetupPaymentRequest,
  response: finishSetupPaymentResponse,
});

export const deletePaymentRequest = z.object({
  organizationId: idSchema,
});
export const deletePaymentResponse = emptyResponse;
export const deletePaymentCall = defineCall({
  path: "/v1/payments/delete-payment",
  auth: "session",
  access: { scope: "organization", permission: "organization.payments" },
  request: deletePaymentRequest,
  response: deletePaymentResponse,
});

/**
 * Threshold and amount must reach the 20 dollar minimum only while auto recharge is on: turning it off
 * must work even when the fields still hold the "never set" zeros.
 */
export const updateAutoRechargeRequest = z
  .object({
    organizationId: idSchema,
    enabled: z.boolean(),
    threshold: z.number().finite().min(0),
    amount: z.number().finite().min(0),
  })
  .superRefine((value, ctx) => {
    if (!value.enabled) {
      return;
    }
    for (const key of ["threshold", "amount"] as const) {
      if (!rechargeUsdSchema.safeParse(value[key]).success) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `The ${key} must be a whole-cent amount of at least $${MIN_RECHARGE_USD}.`,
        });
      }
    }
  });
export const updateAutoRechargeResponse = emptyResponse;
export const updateAutoRechargeCall = defineCall({
  path: "/v1/payments/update-auto-recharge",
  auth: "session",
  access: { scope: "organization", permission: "organization.payments" },
  request: updateAutoRechargeRequest,
  response: updateAutoRechargeResponse,
});

/** Charges the saved card; the balance is credited once the payment succeeds and the client polls users/me. */
export const rechargeAccountRequest = z.object({
  organizationId: idSchema,
  amount: rechargeUsdSchema,
});
export const rechargeAccountResponse = emptyResponse;
export const rechargeAccountCall = defineCall({
  path: "/v1/payments/recharge-account",
  auth: "session",
  access: { scope: "organization", permission: "organization.payments" },
  request: rechargeAccountRequest,
  response: rechargeAccountResponse,
});

/**
 * The sandbox provider's stand-in for the card provider's script: it confirms a setup intent with
 * test card data and answers the setup intent id for finish-setup-payment. Public like the real
 * provider's endpoint; the client secret is the credential.
 */
export const sandboxConfirmSetupRequest = z.object({
  clientSecret: tokenSchema,
  number: z
    .string()
    .transform((number) => number.replace(/[\s-]/g, ""))
    .pipe(
      z
        .string()
        .regex(new RegExp(`^\\d{${CARD_NUMBER_MIN_DIGITS},${CARD_NUMBER_MAX_DIGITS}}$`), CARD_NUMBER_INVALID),
    ),
  expMonth: z.coerce.number().int().min(1).max(12),
  /** Two-digit years mean 20xx, as card forms show them. */
  expYear: z.coerce
    .number()
    .int()
    .min(0)
    .max(2_100)
    .transform((year) => (year < 100 ? 2_000 + year : year))
    .pipe(z.number().min(2_000)),
  cvc: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, CARD_SECURITY_CODE_INVALID),
});
export const sandboxConfirmSetupResponse = z.object({
  setupIntentId: z.string(),
});
export const sandboxConfirmSetupCall = defineCall({
  path: "/v1/payments/sandbox/confirm-setup",
  auth: "public",
  access: { scope: "public" },
  request: sandboxConfirmSetupRequest,
  response: sandboxConfirmSetupResponse,
});

export const paymentCalls = {
  getPaymentInfo: getPaymentInfoCall,
  startSetupPayment: startSetupPaymentCall,
  finishSetupPayment: finishSetupPaymentCall,
  deletePayment: deletePaymentCall,
  updateAutoRecharge: updateAutoRechargeCall,
  rechargeAccount: rechargeAccountCall,
  sandboxConfirmSetup: sandboxConfirmSetupCall,
} as const;

export type GetPaymentInfoRequest = z.infer<typeof getPaymentInfoRequest>;
export type GetPaymentInfoResponse = z.infer<typeof getPaymentInfoResponse>;
export type StartSetupPaymentRequest = z.infer<typeof startSetupPaymentRequest>;
export type StartSetupPaymentResponse = z.infer<typeof startSetupPaymentResponse>;
export type FinishSetupPaymentRequest = z.infer<typeof finishSetupPaymentRequest>;
export type DeletePaymentRequest = z.infer<typeof deletePaymentRequest>;
export type UpdateAutoRechargeRequest = z.infer<typeof updateAutoRechargeRequest>;
export type RechargeAccountRequest = z.infer<typeof rechargeAccountRequest>;
export type SandboxConfirmSetupRequest = z.infer<typeof sandboxConfirmSetupRequest>;
export type SandboxConfirmSetupResponse = z.infer<typeof sandboxConfirmSetupResponse>;
