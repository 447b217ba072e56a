import { expect } from "vitest";
import { post } from "./accounts";
import type { TestApp } from "./test-app";

/** Saves a sandbox test card for the organization through the same three calls the console makes. */
export async function addSandboxCard(
  testApp: TestApp,
  session: string,
  organizationId: string,
  number = "4242424242424242",
) {
  const started = await post(testApp, "/v1/payments/start-setup-payment", { organizationId }, { session });
  expect(started.statusCode).toBe(200);
  const confirmed = await post(testApp, "/v1/payments/sandbox/confirm-setup", {
    clientSecret: started.json().clientSecret,
    number,
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 2,
    cvc: number.startsWith("37") ? "1234" : "123",
  });
  if (confirmed.statusCode !== 200) return confirmed;
  const finished = await post(
    testApp,
    "/v1/payments/finish-setup-payment",
    { organizationId, setupIntentId: confirmed.json().setupIntentId },
    { session },
  );
  expect(finished.statusCode).toBe(200);
  return finished;
}
