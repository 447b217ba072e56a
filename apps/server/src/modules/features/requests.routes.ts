import {
  callAlreadyEndedText,
  callStateOf,
  isEndedState,
  REQUEST_CANCEL_PATH,
  REQUEST_DETAIL_PATH,
  REQUEST_NOT_FOUND,
  type RequestDetail,
} from "@prism/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";
import { authenticateCaller } from "./admit-call";
import { currentDetail } from "./call-answer";
import type { GatewayDeps } from "./call-deps";
import { CallCanceled } from "./call-dispatcher";
import { cancelCallRefund } from "./call-failure";
import { findRequestOfProject } from "./feature-requests.store";

/** What these routes use of the application's dependencies. */
export type RequestsRouteDeps = Pick<AppDependencies, "config" | "database">;

/**
 * Following and canceling one call (issue 29): with an API key, the calls of the key's project; in the
 * console, the calls of the project named in `x-authorization-project` (the playground permission, as
 * for making them). Another project's id answers the same 404 as an id that never existed.
 */
export function registerRequestRoutes(
  app: FastifyInstance,
  deps: RequestsRouteDeps,
  gateway: GatewayDeps,
): void {
  const db = deps.database.db;

  async function requireCallOfCaller(
    request: FastifyRequest<{ Params: { id: string } }>,
    reply: FastifyReply,
  ) {
    const caller = await authenticateCaller(deps, request, reply, { readBudgetStop: false });
    const id = request.params.id;
    const row = isUuid(id)
      ? await findRequestOfProject(db, { projectId: caller.projectId, requestId: id })
      : undefined;
    if (!row) throw new AppError("not-found", REQUEST_NOT_FOUND);
    return row;
  }

  app.get<{ Params: { id: string } }>(
    REQUEST_DETAIL_PATH.replace("{id}", ":id"),
    async (request, reply): Promise<RequestDetail> => {
      const row = await requireCallOfCaller(request, reply);
      return currentDetail(gateway, row.id, deps.config.publicUrl);
    },
  );

  // Cancel: a queued call never reaches a provider; a running one is stopped at its provider; both
  // are refunded in full, once. Canceling a canceled call answers it again; an ended call, 409.
  app.post<{ Params: { id: string } }>(
    REQUEST_CANCEL_PATH.replace("{id}", ":id"),
    async (request, reply): Promise<RequestDetail> => {
      const row = await requireCallOfCaller(request, reply);
      const before = callStateOf(row.status);
      if (before !== "canceled") {
        if (isEndedState(before)) throw new AppError("request-ended", callAlreadyEndedText(before));
        await cancelCallRefund(db, row.id);
        // Whoever runs it stops its provider now (this process directly, another by notification).
        await gateway.dispatcher.requestAbort(row.id, new CallCanceled());
      }
      const detail = await currentDetail(gateway, row.id, deps.config.publicUrl);
      if (detail.status === "succeeded" || detail.status === "failed") {
        // It ended on its own between the read and the cancel.
        throw new AppError("request-ended", callAlreadyEndedText(detail.status));
      }
      return detail;
    },
  );
}
