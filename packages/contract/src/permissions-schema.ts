import { z } from "zod";
import { ID_MAX_LENGTH } from "./limits";

// Kept apart from permissions.ts, whose checks run on every page of the console: importing them must not
// bring zod to the sign-in page (issue 16).

const PROJECT_KEY = new RegExp(`^[A-Za-z0-9-]{1,${ID_MAX_LENGTH}}$`);

/**
 * A member's rights in one organization. `owner` grants everything; otherwise each dotted path
 * must be truthy at every level. `projects` holds `all` plus one flag per project id.
 */
export const permissionsSchema = z.object({
  owner: z.boolean(),
  organization: z.object({
    general: z.boolean(),
    billing: z.boolean(),
    payments: z.boolean(),
    invoices: z.boolean(),
    playground: z.boolean(),
    /** Reads the audit log (issue 19); trees stored before it existed lack it, which means false. */
    audit: z.boolean().default(false),
  }),
  members: z.object({
    invite: z.boolean(),
    edit: z.boolean(),
    delete: z.boolean(),
  }),
  apiKeys: z.object({
    create: z.boolean(),
    delete: z.boolean(),
  }),
  projects: z
    .object({ all: z.boolean() })
    .catchall(z.boolean())
    // Project ids are UUIDs; refusing other keys also keeps `__proto__` out of stored trees.
    .refine((projects) => Object.keys(projects).every((id) => PROJECT_KEY.test(id)), {
      message: "Invalid project id in permissions.",
    }),
});

export type Permissions = z.infer<typeof permissionsSchema>;

/**
 * A member's tree as the database keeps it (members and invitations): without the owner flag, which
 * the membership row holds, and empty for the owner. A tree written before a right existed lacks it
 * (the schema's input type), so readers parse it with `permissionsSchema` before they trust it.
 */
export type StoredPermissions = Omit<z.input<typeof permissionsSchema>, "owner"> | Record<string, never>;
