import { cardBrandLabel, formatBalance, INVITATION_TTL_DAYS, PRODUCT_NAME } from "@prism/contract";
import type { MailMessage } from "./mailer";

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * A name someone chose (an organization, an inviter), as mails show it: in quotes, so it reads as a
 * name and not as the mail's own words. Names hold no line breaks (the contract refuses them), so a
 * quoted name cannot start lines of its own either.
 */
export const quotedName = (name: string) => `"${name}"`;

/** One layout for every mail: a plain, readable card that renders in every client. */
function layout(title: string, paragraphsHtml: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f6f6fb;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2330">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0"><tr><td align="center">
<table role="presentation" width="520" cellspacing="0" cellpadding="0" style="background:#ffffff;border-radius:12px;padding:32px;border:1px solid #e6e6ef">
<tr><td style="font-size:20px;font-weight:700;color:#4c3bcf;padding-bottom:16px">${PRODUCT_NAME}</td></tr>
<tr><td style="font-size:15px;line-height:1.6">${paragraphsHtml}</td></tr>
<tr><td style="font-size:12px;color:#8a8fa3;padding-top:24px">You receive this mail because of an action on your ${PRODUCT_NAME} account. If it was not you, you can ignore it.</td></tr>
</table></td></tr></table></body></html>`;
}

const codeBlock = (code: string) =>
  `<p style="font-size:28px;font-weight:700;letter-spacing:6px;background:#f1effd;border-radius:8px;padding:12px 16px;text-align:center">${escapeHtml(code)}</p>`;

export function verificationCodeMail(
  to: string,
  firstName: string,
  code: string,
  validMinutes: number,
): MailMessage {
  const subject = `Your ${PRODUCT_NAME} verification code: ${code}`;
  return {
    to,
    subject,
    text: [
      `Hello ${firstName},`,
      "",
      `Your ${PRODUCT_NAME} verification code is ${code}.`,
      `Enter it on the sign-up screen to activate your account. It is valid for ${validMinutes} minutes.`,
    ].join("\n"),
    html: layout(
      subject,
      `<p>Hello ${escapeHtml(firstName)},</p><p>Enter this code on the sign-up screen to activate your account:</p>${codeBlock(code)}<p>It is valid for ${validMinutes} minutes.</p>`,
    ),
  };
}

export function passwordResetMail(
  to: string,
  firstName: string,
  code: string,
  validMinutes: number,
): MailMessage {
  const subject = `Your ${PRODUCT_NAME} password reset code: ${code}`;
  return {
    to,
    subject,
    text: [
      `Hello ${firstName},`,
      "",
      `Your ${PRODUCT_NAME} password reset code is ${code}.`,
      `Enter it with your new password to change it. It is valid for ${validMinutes} minutes.`,
      "If you did not ask for a new password, ignore this mail: your password stays as it is.",
    ].join("\n"),
    html: layout(
      subject,
      `<p>Hello ${escapeHtml(firstName)},</p><p>Enter this code with your new password to change it:</p>${codeBlock(code)}<p>It is valid for ${validMinutes} minutes. If you did not ask for a new password, ignore this mail: your password stays as it is.</p>`,
    ),
  };
}

export function invitationMail(
  to: string,
  inviterName: string,
  organizationName: string,
  link: string,
): MailMessage {
  const subject = `${quotedName(inviterName)} invited you to ${quotedName(organizationName)} on ${PRODUCT_NAME}`;
  return {
    to,
    subject,
    text: [
      "Hello,",
      "",
      `${quotedName(inviterName)} invited you to join the organization ${quotedName(organizationName)} on ${PRODUCT_NAME}.`,
      `Open this link to accept: ${link}`,
      `The invitation is valid for ${INVITATION_TTL_DAYS} days. If you do not have an account yet, sign up with this email address first.`,
    ].join("\n"),
    html: layout(
      subject,
      `<p>Hello,</p><p><strong>${escapeHtml(quotedName(inviterName))}</strong> invited you to join the organization <strong>${escapeHtml(quotedName(organizationName))}</strong> on ${PRODUCT_NAME}.</p><p style="text-align:center;padding:8px 0"><a href="${escapeHtml(link)}" style="background:#5b48e8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block">Accept the invitation</a></p><p style="font-size:13px;color:#6b7085">Or paste this link into your browser: ${escapeHtml(link)}<br>The invitation is valid for ${INVITATION_TTL_DAYS} days. If you do not have an account yet, sign up with this email address first.</p>`,
    ),
  };
}

/** What a payment receipt says: the money, where it came from and the invoice it was given. */
export interface PaymentReceipt {
  organizationName: string;
  amountUsd: number;
  balanceUsd: number;
  kind: "manual" | "auto";
  card: { brand: string | null; last4: string } | null;
  invoiceNumber: string | null;
  /** The console's Invoices page, where the PDF opens. */
  invoicesUrl: string;
  paidAt: Date;
}

function cardText(card: PaymentReceipt["card"]): string | null {
  return card ? `${cardBrandLabel(card.brand)} ending in ${card.last4}` : null;
}

/** The receipt of one payment credited to an organization's balance, with the way to its invoice. */
export function paymentReceiptMail(to: string, receipt: PaymentReceipt): MailMessage {
  const amount = formatBalance(receipt.amountUsd);
  const subject = `Receipt: ${amount} added to ${receipt.organizationName} on ${PRODUCT_NAME}`;
  const what = receipt.kind === "auto" ? "An automatic recharge" : "A recharge";
  const date = receipt.paidAt.toISOString().slice(0, 10);
  const card = cardText(receipt.card);
  const rows: [string, string][] = [
    ["Amount", amount],
    ["Organization", receipt.organizationName],
    ["Date (UTC)", date],
    ...(card ? ([["Paid with", card]] as [string, string][]) : []),
    ...(receipt.invoiceNumber ? ([["Invoice", receipt.invoiceNumber]] as [string, string][]) : []),
    ["New balance", formatBalance(receipt.balanceUsd)],
  ];
  const invoiceLine = receipt.invoiceNumber
    ? `Invoice ${receipt.invoiceNumber} is on the Invoices page: ${receipt.invoicesUrl}`
    : `Your invoices are on the Invoices page: ${receipt.invoicesUrl}`;
  return {
    to,
    subject,
    text: [
      "Hello,",
      "",
      `${what} of ${amount} was added to the prepaid balance of "${receipt.organizationName}" on ${PRODUCT_NAME}.`,
      "",
      ...rows.map(([label, value]) => `${label}: ${value}`),
      "",
      invoiceLine,
    ].join("\n"),
    html: layout(
      subject,
      `<p>Hello,</p><p>${what} of <strong>${amount}</strong> was added to the prepaid balance of <strong>${escapeHtml(receipt.organizationName)}</strong>.</p><table role="presentation" cellspacing="0" cellpadding="0" style="width:100%;border-collapse:collapse;margin:8px 0 16px">${rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:6px 0;color:#6b7085;border-bottom:1px solid #eeeef5">${escapeHtml(label)}</td><td style="padding:6px 0;text-align:right;font-weight:600;border-bottom:1px solid #eeeef5">${escapeHtml(value)}</td></tr>`,
        )
        .join(
          "",
        )}</table><p style="text-align:center;padding:8px 0"><a href="${escapeHtml(receipt.invoicesUrl)}" style="background:#5b48e8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block">${receipt.invoiceNumber ? `View invoice ${escapeHtml(receipt.invoiceNumber)}` : "View your invoices"}</a></p><p style="font-size:13px;color:#6b7085">Or paste this link into your browser: ${escapeHtml(receipt.invoicesUrl)}</p>`,
    ),
  };
}

export function autoRechargeFailedMail(
  to: string,
  organizationName: string,
  amountUsd: number,
  reason: string,
): MailMessage {
  const subject = `Auto recharge failed for ${quotedName(organizationName)}`;
  const amount = formatBalance(amountUsd);
  return {
    to,
    subject,
    text: [
      "Hello,",
      "",
      `The automatic recharge of ${amount} for ${quotedName(organizationName)} on ${PRODUCT_NAME} failed: ${reason}`,
      "Auto recharge is paused until the balance is above its threshold again. Please check the payment method in the console.",
    ].join("\n"),
    html: layout(
      subject,
      `<p>Hello,</p><p>The automatic recharge of <strong>${amount}</strong> for <strong>${escapeHtml(quotedName(organizationName))}</strong> failed: ${escapeHtml(reason)}</p><p>Auto recharge is paused until the balance is above its threshold again. Please check the payment method in the console.</p>`,
    ),
  };
}

/** An alert about an organization (low balance, budget, failing webhook): a subject and a few lines. */
export function organizationAlertMail(to: string, subject: string, lines: readonly string[]): MailMessage {
  return {
    to,
    subject,
    text: ["Hello,", "", ...lines].join("\n"),
    html: layout(subject, `<p>Hello,</p>${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")}`),
  };
}

/** Where and when a security change was made, as a security mail names it. */
export interface SecurityEventOrigin {
  /** "Chrome 126.0 on macOS 14.5", or "an unknown device". */
  device: string;
  ipAddress: string;
  /** "Nov 27, 2026, 06:30 PM UTC". */
  at: string;
}

/**
 * A mail telling the account's owner of a security change (issue 27): what changed, from which device
 * and address, and what to do if it was not them. Every user-supplied value is escaped in the HTML and
 * quoted in the text.
 */
function securityMail(
  to: string,
  firstName: string,
  subject: string,
  whatHappened: string,
  origin: SecurityEventOrigin,
  ifNotYou: { text: string; link?: { label: string; url: string } },
): MailMessage {
  const where = `Device: ${origin.device}\nAddress: ${origin.ipAddress}\nTime: ${origin.at}`;
  const button = ifNotYou.link
    ? `<p style="text-align:center;padding:8px 0"><a href="${escapeHtml(ifNotYou.link.url)}" style="background:#c92a2a;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600;display:inline-block">${escapeHtml(ifNotYou.link.label)}</a></p><p style="font-size:13px;color:#6b7085">Or paste this link into your browser: ${escapeHtml(ifNotYou.link.url)}</p>`
    : "";
  return {
    to,
    subject,
    text: [
      `Hello ${firstName},`,
      "",
      whatHappened,
      "",
      where,
      "",
      `If this was you, there is nothing to do. If it was not you: ${ifNotYou.text}`,
      ...(ifNotYou.link ? [`${ifNotYou.link.label}: ${ifNotYou.link.url}`] : []),
    ].join("\n"),
    html: layout(
      subject,
      `<p>Hello ${escapeHtml(firstName)},</p><p>${escapeHtml(whatHappened)}</p><p style="background:#f6f6fb;border-radius:8px;padding:12px 16px;font-size:14px">Device: ${escapeHtml(origin.device)}<br>Address: ${escapeHtml(origin.ipAddress)}<br>Time: ${escapeHtml(origin.at)}</p><p>If this was you, there is nothing to do. <strong>If it was not you:</strong> ${escapeHtml(ifNotYou.text)}</p>${button}`,
    ),
  };
}

const SECURE_YOUR_ACCOUNT = `sign in, change your password, and use "Logout from All Sessions" on your Profile page.`;

export function passkeyAddedMail(
  to: string,
  firstName: string,
  passkeyName: string,
  origin: SecurityEventOrigin,
  removalLink: string,
): MailMessage {
  return securityMail(
    to,
    firstName,
    `A passkey was added to your ${PRODUCT_NAME} account`,
    `The passkey "${passkeyName}" was added to your ${PRODUCT_NAME} account. It signs in without your password.`,
    origin,
    {
      text: "remove it with the button below: it stops working at once and every device signed in to your account is signed out. Then change your password.",
      link: { label: "Remove this passkey and sign out everywhere", url: removalLink },
    },
  );
}

export function passwordChangedMail(
  to: string,
  firstName: string,
  origin: SecurityEventOrigin,
  recoverLink: string,
): MailMessage {
  return securityMail(
    to,
    firstName,
    `Your ${PRODUCT_NAME} password was changed`,
    `The password of your ${PRODUCT_NAME} account was changed, and every other device was signed out.`,
    origin,
    {
      text: "choose a new password with Recover Password on the sign-in page (it signs every device out), then check your passkeys and two-factor authentication on your Profile page.",
      link: { label: "Recover your password", url: recoverLink },
    },
  );
}

export function twoFactorDisabledMail(
  to: string,
  firstName: string,
  origin: SecurityEventOrigin,
): MailMessage {
  return securityMail(
    to,
    firstName,
    `Two-factor authentication was turned off on your ${PRODUCT_NAME} account`,
    `Two-factor authentication was turned off on your ${PRODUCT_NAME} account: a password alone now signs in.`,
    origin,
    { text: `${SECURE_YOUR_ACCOUNT} Then turn two-factor authentication on again.` },
  );
}

export function recoveryCodeUsedMail(
  to: string,
  firstName: string,
  codesLeft: number,
  origin: SecurityEventOrigin,
): MailMessage {
  return securityMail(
    to,
    firstName,
    `A recovery code was used on your ${PRODUCT_NAME} account`,
    `One of your ${PRODUCT_NAME} recovery codes was used instead of an authentication code. ${codesLeft} ${codesLeft === 1 ? "code is" : "codes are"} left.`,
    origin,
    {
      text: `someone knows your password and holds your recovery codes: ${SECURE_YOUR_ACCOUNT} Then generate new recovery codes.`,
    },
  );
}
