import type { FastifyRequest } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import type { MailMessage } from "../../providers/mail/mailer";
import type { SecurityEventOrigin } from "../../providers/mail/templates";
import { findUserById } from "../users/users.store";
import { describeUserAgent } from "./devices.service";

const MAIL_TIME_FORMAT = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hour12: true,
  timeZone: "UTC",
});

/** The device and address a request came from, in words a person recognises. */
export function securityEventOrigin(request: FastifyRequest, now = new Date()): SecurityEventOrigin {
  const { browser, os } = describeUserAgent(request.headers["user-agent"] ?? null);
  const device = browser && os ? `${browser} on ${os}` : (browser ?? os ?? "an unknown device");
  return { device, ipAddress: request.ip, at: `${MAIL_TIME_FORMAT.format(now)} UTC` };
}

/**
 * Sends a security mail (issue 27) to the account's own address after the change has committed. The
 * change stands whether or not the mail goes out, so a mail server's failure is logged, not answered
 * with a 500 for a change that was made.
 */
export async function sendSecurityMail(
  deps: Pick<AppDependencies, "database" | "mailer">,
  request: FastifyRequest,
  userId: string,
  build: (user: { email: string; firstName: string }, origin: SecurityEventOrigin) => MailMessage,
): Promise<void> {
  try {
    const user = await findUserById(deps.database.db, userId);
    if (!user) return;
    await deps.mailer.send(build(user, securityEventOrigin(request)));
  } catch (error) {
    request.log.error({ err: error }, "security mail not sent");
  }
}
