import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../src/db/client";
import { projects } from "../src/db/schema";
import { type CallReservation, reserveCall, settleCall } from "../src/modules/ledger/call-ledger.store";

/**
 * A feature call's money as production moves it (call-ledger.store.ts), without a provider: the
 * reservation writes a queued request row of the organization's first project, and `chargeCall` settles
 * it too. For tests that need an organization's balance spent the way calls spend it.
 */
export async function reserveForCall(
  db: Database,
  input: { organizationId: string; amountMicros: bigint; requestId?: string },
): Promise<CallReservation & { requestId: string }> {
  const [project] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.organizationId, input.organizationId))
    .limit(1);
  if (!project) throw new Error(`organization ${input.organizationId} has no project`);
  const requestId = input.requestId ?? randomUUID();
  const reservation = await reserveCall(db, {
    organizationId: input.organizationId,
    priceMicros: input.amountMicros,
    requestId,
    concurrentLimit: 0,
    budgetReached: sql`false`,
    watch: {},
    request: {
      organizationId: input.organizationId,
      projectId: project.id,
      endpoint: "/v1/images/background-removal",
      callType: "background-removal",
      provider: "http",
      requestFiles: {},
      requestBody: {},
      units: 1,
      priceMicros: input.amountMicros,
    },
  });
  return { ...reservation, requestId };
}

/**
 * A call reserved and settled: the organization is charged `amountMicros`, as by a finished call.
 * Answers the call's request id.
 */
export async function chargeCall(
  db: Database,
  input: { organizationId: string; amountMicros: bigint },
): Promise<string> {
  const reservation = await reserveForCall(db, input);
  if (!reservation.reserved)
    throw new Error(`could not reserve ${input.amountMicros}: ${reservation.refusal}`);
  await db.execute(
    sql`update feature_requests set status = 'generating' where id = ${reservation.requestId}::uuid`,
  );
  const completedAt = new Date();
  const [project] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(eq(projects.organizationId, input.organizationId))
    .limit(1);
  const settled = await settleCall(db, {
    requestId: reservation.requestId,
    organizationId: input.organizationId,
    responseFile: null,
    responseBody: null,
    completedAt,
    usage: {
      projectId: project?.id ?? "",
      endpoint: "/v1/images/background-removal",
      callType: "background-removal",
      units: 1,
      costMicros: input.amountMicros,
    },
  });
  if (!settled) throw new Error("the call was not settled");
  return reservation.requestId;
}
