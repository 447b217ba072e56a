import type { CallDefinition } from "../define-call";
import { passkeyCalls, reauthenticationCalls, sessionCalls, twoFactorCalls } from "./account-security";
import { apiKeyCalls } from "./api-keys";
import { auditCalls } from "./audit";
import { invoiceCalls } from "./invoices";
import { memberCalls } from "./members";
import { organizationCalls } from "./organizations";
import { paymentCalls } from "./payments";
import { playgroundCalls } from "./playground";
import { projectCalls } from "./projects";
import { requestLogCalls } from "./requests";
import { statisticsCalls } from "./statistics";
import { systemCalls } from "./system";
import { userCalls } from "./users";
import { alertCalls, webhookCalls } from "./webhooks";

export * from "./account-security";
export * from "./api-keys";
export * from "./audit";
export * from "./call-status";
export * from "./features";
export * from "./invoices";
export * from "./members";
export * from "./organizations";
export * from "./payments";
export * from "./playground";
export * from "./projects";
export * from "./requests";
export * from "./statistics";
export * from "./system";
export * from "./usage";
export * from "./users";
export * from "./webhooks";

/** Every JSON console call by area; the server registers routes from it and the web derives its client. */
export const calls = {
  system: systemCalls,
  users: userCalls,
  organizations: organizationCalls,
  members: memberCalls,
  projects: projectCalls,
  apiKeys: apiKeyCalls,
  payments: paymentCalls,
  invoices: invoiceCalls,
  playground: playgroundCalls,
  statistics: statisticsCalls,
  requests: requestLogCalls,
  twoFactor: twoFactorCalls,
  sessions: sessionCalls,
  passkeys: passkeyCalls,
  reauthentication: reauthenticationCalls,
  webhooks: webhookCalls,
  alerts: alertCalls,
  audit: auditCalls,
} as const;

export type CallArea = keyof typeof calls;

export const allCalls: readonly CallDefinition[] = Object.values(calls).flatMap((area): CallDefinition[] =>
  Object.values(area),
);
