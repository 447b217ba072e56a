import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { oauthAccounts } from "../../db/schema";

/** The user a Google or GitHub identity is linked to, if any. */
export async function findOAuthUserId(
  db: Executor,
  identity: { provider: "google" | "github"; subject: string },
) {
  const [linked] = await db
    .select({ userId: oauthAccounts.userId })
    .from(oauthAccounts)
    .where(
      and(eq(oauthAccounts.provider, identity.provider), eq(oauthAccounts.providerUserId, identity.subject)),
    )
    .limit(1);
  return linked?.userId;
}

/** Links an identity to a user; a link made meanwhile by a parallel sign-in stays. */
export async function linkOAuthAccount(
  db: Executor,
  values: typeof oauthAccounts.$inferInsert,
): Promise<void> {
  await db.insert(oauthAccounts).values(values).onConflictDoNothing();
}
