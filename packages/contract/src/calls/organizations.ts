import { z } from "zod";
import { defineCall } from "../define-call";
import { organizationSchema } from "../entities";
import { emailSchema, emptyResponse, idSchema, singleLine } from "../fields";
import { BILLING_FIELD_MAX_LENGTH, NAME_MAX_LENGTH } from "../limits";
import { REQUIRED_FIELDS_MISSING } from "../messages";
import { permissionsSchema } from "../permissions-schema";

/** Organization calls. Every call naming an organization is checked against the caller's memberships. */

const organizationNameSchema = singleLine(
  z.string().trim().min(1, REQUIRED_FIELDS_MISSING).max(NAME_MAX_LENGTH),
);
const requiredBillingField = singleLine(
  z.string().trim().min(1, REQUIRED_FIELDS_MISSING).max(BILLING_FIELD_MAX_LENGTH),
);

export const createOrganizationRequest = z.object({
  name: organizationNameSchema,
});
/** The new organization with its first project, the caller as owner. */
export const createOrganizationResponse = organizationSchema;
export const createOrganizationCall = defineCall({
  path: "/v1/users/organizations/create",
  auth: "session",
  access: { scope: "account" },
  request: createOrganizationRequest,
  response: createOrganizationResponse,
});

export const updateOrganizationNameRequest = z.object({
  organizationId: idSchema,
  name: organizationNameSchema,
});
export const updateOrganizationNameResponse = emptyResponse;
export const updateOrganizationNameCall = defineCall({
  path: "/v1/users/organizations/update-name",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  request: updateOrganizationNameRequest,
  response: updateOrganizationNameResponse,
});

/** Archives the organization (owner only); refused with `last-organization` for the caller's only one. */
export const deleteOrganizationRequest = z.object({
  organizationId: idSchema,
});
export const deleteOrganizationResponse = emptyResponse;
export const deleteOrganizationCall = defineCall({
  path: "/v1/users/organizations/delete",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  requiresReauthentication: true,
  request: deleteOrganizationRequest,
  response: deleteOrganizationResponse,
});

export const changeOwnerRequest = z.object({
  organizationId: idSchema,
  newOwnerUserId: idSchema,
});
/** The former owner's permissions after the transfer; the client replaces its own with them. */
export const changeOwnerResponse = z.object({
  newPermissions: permissionsSchema,
});
export const changeOwnerCall = defineCall({
  path: "/v1/users/organizations/change-owner",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  requiresReauthentication: true,
  request: changeOwnerRequest,
  response: changeOwnerResponse,
});

export const updateBillingRequest = z.object({
  organizationId: idSchema,
  billingName: requiredBillingField,
  billingEmail: emailSchema,
  /** Optional: an empty value clears it. */
  taxId: singleLine(z.string().trim().max(BILLING_FIELD_MAX_LENGTH))
    .nullish()
    .transform((value) => value || null),
  address: requiredBillingField,
  city: requiredBillingField,
  state: requiredBillingField,
  zipCode: requiredBillingField,
  country: requiredBillingField,
});
export const updateBillingResponse = emptyResponse;
export const updateBillingCall = defineCall({
  path: "/v1/users/organizations/update-billing",
  auth: "session",
  access: { scope: "organization", permission: "organization.billing" },
  request: updateBillingRequest,
  response: updateBillingResponse,
});

/** The owner requires (or stops requiring) two-factor sign-in of every member of the organization. */
export const updateOrganizationSecurityRequest = z.object({
  organizationId: idSchema,
  requireTwoFactor: z.boolean(),
});
export const updateOrganizationSecurityCall = defineCall({
  path: "/v1/users/organizations/update-security",
  auth: "session",
  access: { scope: "organization", permission: "owner" },
  request: updateOrganizationSecurityRequest,
  response: emptyResponse,
});

/**
 * Ours (issue 33): how far a new organization has come on Home's first-steps checklist, each step read
 * from what really happened (a card saved, a payment credited, a key made, a call made with a key).
 */
export const getFirstStepsRequest = z.object({ organizationId: idSchema });
export const firstStepsSchema = z.object({
  cardAdded: z.boolean(),
  recharged: z.boolean(),
  apiKeyCreated: z.boolean(),
  apiCallMade: z.boolean(),
});
export type FirstSteps = z.infer<typeof firstStepsSchema>;
export const getFirstStepsCall = defineCall({
  path: "/v1/users/organizations/first-steps",
  auth: "session",
  access: { scope: "organization", permission: "member" },
  request: getFirstStepsRequest,
  response: firstStepsSchema,
});

export const organizationCalls = {
  create: createOrganizationCall,
  firstSteps: getFirstStepsCall,
  updateName: updateOrganizationNameCall,
  delete: deleteOrganizationCall,
  changeOwner: changeOwnerCall,
  updateBilling: updateBillingCall,
  updateSecurity: updateOrganizationSecurityCall,
} as const;

export type CreateOrganizationRequest = z.infer<typeof createOrganizationRequest>;
export type UpdateOrganizationNameRequest = z.infer<typeof updateOrganizationNameRequest>;
export type DeleteOrganizationRequest = z.infer<typeof deleteOrganizationRequest>;
export type ChangeOwnerRequest = z.infer<typeof changeOwnerRequest>;
export type ChangeOwnerResponse = z.infer<typeof changeOwnerResponse>;
export type UpdateBillingRequest = z.infer<typeof updateBillingRequest>;
