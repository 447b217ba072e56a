import { z } from "zod";
import { defineCall } from "../define-call";
import { idSchema, isoDateSchema, isoDateTimeSchema } from "../fields";

/**
 * The audit log (issue 19): one entry per state change of an organization, written in the change's
 * own transaction. Read by the owner or a member with `organization.audit`.
 */

/** Every action an entry may name, with the words the Audit log page shows for it. */
export const AUDIT_ACTION_LABELS = {
  "organization.created": "Organization created",
  "organization.renamed": "Organization renamed",
  "organization.archived": "Organization archived",
  "organization.owner-changed": "Ownership transferred",
  "organization.billing-updated": "Billing details updated",
  "organization.two-factor-requirement-changed": "Two-factor requirement changed",
  "member.invited": "Member invited",
  "member.invitation-revoked": "Invitation revoked",
  "member.invitation-declined": "Invitation declined",
  "member.joined": "Member joined",
  "member.removed": "Member removed",
  "member.left": "Member left",
  "member.permissions-changed": "Permissions changed",
  "project.created": "Project created",
  "project.renamed": "Project renamed",
  "project.archived": "Project archived",
  "api-key.created": "API key created",
  "api-key.renamed": "API key renamed",
  "api-key.limits-changed": "API key limits changed",
  "api-key.deleted": "API key deleted",
  "api-key.revoked-with-member": "API key revoked as its creator left",
  "payment-method.added": "Payment method added",
  "payment-method.removed": "Payment method removed",
  "recharge.started": "Recharge started",
  "recharge.succeeded": "Recharge succeeded",
  "recharge.failed": "Recharge failed",
  "auto-recharge.updated": "Auto recharge settings changed",
  "playground-request.deleted": "Playground request deleted",
  "webhook-endpoint.created": "Webhook endpoint added",
  "call-webhook-secret.rotated": "Per-call webhook secret rotated",
  "webhook-endpoint.updated": "Webhook endpoint changed",
  "webhook-endpoint.deleted": "Webhook endpoint deleted",
  "webhook-endpoint.disabled": "Webhook endpoint disabled after failures",
  "alerts.updated": "Alerts changed",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

/** The words for an entry's action; an action unknown to this version reads as itself. */
export function auditActionLabel(action: string): string {
  return Object.hasOwn(AUDIT_ACTION_LABELS, action) ? AUDIT_ACTION_LABELS[action as AuditAction] : action;
}
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]];

export const AUDIT_ACTOR_TYPES = ["user", "api-key", "system"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** Entries per page of the Audit log. */
export const AUDIT_PAGE_SIZE = 50;

export const auditEntrySchema = z.object({
  id: idSchema,
  createdAt: isoDateTimeSchema,
  actor: z.object({
    type: z.enum(AUDIT_ACTOR_TYPES),
    /** The user's or key's id; null for the system (webhooks, timers). */
    id: idSchema.nullable(),
    /** "First Last" of a user, a key's name; null when unknown (the system, a key since deleted). */
    name: z.string().nullable(),
  }),
  /** One of AUDIT_ACTIONS (a string, so an entry of an action retired since still reads). */
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** The changed fields before and after; never secrets. */
  changes: z
    .object({
      before: z.record(z.string(), z.unknown()).optional(),
      after: z.record(z.string(), z.unknown()).optional(),
    })
    .nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** The filters of the page and the export: all optional, `from`/`to` are UTC days, both included. */
export const auditFilterSchema = z.object({
  organizationId: idSchema,
  actorId: idSchema.optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const listAuditLogRequest = auditFilterSchema.extend({
  /** The `nextCursor` of the previous page; absent for the newest page. */
  cursor: z.string().max(200).optional(),
});
export const listAuditLogResponse = z.object({
  entries: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type ListAuditLogResponse = z.infer<typeof listAuditLogResponse>;
export const listAuditLogCall = defineCall({
  path: "/v1/users/audit-log/list",
  auth: "session",
  access: { scope: "organization", permission: "organization.audit" },
  request: listAuditLogRequest,
  response: listAuditLogResponse,
});

/** CSV of every entry the filters match, newest first: `GET` with the filters as the query string. */
export const AUDIT_EXPORT_PATH = "/v1/users/audit-log/export";
export const AUDIT_EXPORT_COLUMNS = [
  "Time (UTC)",
  "Actor type",
  "Actor ID",
  "Actor",
  "Action",
  "Target type",
  "Target ID",
  "Changes",
  "IP address",
  "Entry ID",
] as const;
export function auditExportFileName(organizationId: string): string {
  return `prism-audit-log-${organizationId}.csv`;
}

export const auditCalls = {
  list: listAuditLogCall,
};
