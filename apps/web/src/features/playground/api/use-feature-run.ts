import {
  type Feature,
  type HistoryRequestRecord,
  type RequestDetail,
  requestStatusOfState,
  statusOf,
} from "@prism/contract";
import type { SnippetValue } from "@prism/contract/snippets";
import { useCallback, useEffect, useRef, useState } from "react";
import { openInfoModal } from "../../../components/overlays/modals";
import { ApiError, isApiError } from "../../../lib/api-client";
import { PATHS } from "../../../lib/paths";
import { useCan } from "../../../lib/permissions";
import { runFailureOf } from "../lib/run-failure";
import { getRequestDetail, submitFeatureCall } from "./call-feature";
import { fromRecord, type HistoryItem, type PlaygroundHistory } from "./use-history";

/** How often a queued or running call's state is read while the screen shows it. */
export const FOLLOW_INTERVAL_MS = 1_000;

/** A row for a call as GET /v1/requests/{id} shows it (the history keeps the request log's words). */
export function fromDetail(detail: RequestDetail): HistoryItem {
  return {
    ...fromRecord({
      id: detail.id,
      request_date: detail.request_date,
      request_data: detail.request_data,
      response_data: detail.response_data,
      status: requestStatusOfState(detail.status),
      cost: detail.cost,
    }),
    queuePosition: detail.queue_position,
    ...(detail.started_date ? { startedAt: Date.parse(detail.started_date) } : {}),
    ...(detail.error_message ? { errorMessage: detail.error_message } : {}),
  };
}

/** The error a call that ended without a result answers, as the api client would have thrown it. */
function errorOfDetail(detail: RequestDetail): ApiError {
  const code = (detail.error ?? "feature-failed") as Parameters<typeof statusOf>[0];
  return new ApiError(statusOf(code), code, detail.error_message ?? "");
}

const isOpen = (detail: RequestDetail) => detail.status === "queued" || detail.status === "running";

/** What one action sends: files per multipart field and the non-file fields. */
export interface FeatureRequest {
  files: Record<string, readonly File[]>;
  body: Record<string, SnippetValue | undefined>;
  /** Extra headers, e.g. the AI Clone's `x-authorization-identity-request-id`. */
  headers?: Record<string, string>;
}

export function toFormData(request: FeatureRequest): FormData {
  const form = new FormData();
  for (const [name, files] of Object.entries(request.files)) {
    for (const file of files) form.append(name, file, file.name);
  }
  for (const [name, value] of Object.entries(request.body)) {
    if (value !== undefined && value !== "") form.append(name, String(value));
  }
  return form;
}

export interface FeatureRun {
  /** Calls in flight: the action button works while any is. */
  running: number;
  /** Launches `count` calls of the request in parallel, one placeholder row each; settles with the last. */
  run: (request: FeatureRequest, projectId: string, count?: number) => Promise<void>;
  /** Drops a local row (a failed call's) and the previews of its inputs. */
  discard: (key: string) => void;
  /**
   * Follows a queued or running call the screen did not start (the list showed it after a reload)
   * until it ends, updating its row.
   */
  follow: (item: HistoryItem, projectId: string) => void;
}

/**
 * A playground screen's calls: a generating row at the top showing the chosen files, submitted
 * asynchronously (so a reload or a long queue loses nothing: the server has the row from the first
 * moment), then followed until it ends — swapped for the stored record on success (the new balance
 * read), or triaged on failure (`runFailureOf`). The placeholder's previews are object URLs: each is
 * revoked once its row no longer shows it and all of them when the screen unmounts.
 */
export function useFeatureRun({
  feature,
  history,
  onBalance,
  onSucceeded,
  onSuccess,
}: {
  feature: Pick<Feature, "endpoint" | "name" | "inputs" | "failureDialog">;
  history: Pick<PlaygroundHistory, "prepend" | "replace" | "update" | "remove">;
  onBalance: (balance: number) => void;
  /** A call followed to its end succeeded: the balance moved on the server (read it again). */
  onSucceeded?: () => void;
  onSuccess?: (record: HistoryRequestRecord) => void;
}): FeatureRun {
  const [running, setRunning] = useState(0);
  const previews = useRef(new Map<string, string[]>());
  const canPay = useCan("organization.payments");
  const followed = useRef(new Map<string, Promise<RequestDetail>>());
  const mounted = useRef(true);

  const release = (key: string) => {
    for (const url of previews.current.get(key) ?? []) URL.revokeObjectURL(url);
    previews.current.delete(key);
  };

  useEffect(() => {
    mounted.current = true;
    const held = previews.current;
    return () => {
      mounted.current = false;
      for (const urls of held.values()) for (const url of urls) URL.revokeObjectURL(url);
      held.clear();
    };
  }, []);

  /** Reads the call every FOLLOW_INTERVAL_MS until it ends, keeping its row's state and position. */
  const followUntilEnded = useCallback(
    (id: string, key: string, projectId: string): Promise<RequestDetail> => {
      const existing = followed.current.get(id);
      if (existing) return existing;
      const following = (async () => {
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, FOLLOW_INTERVAL_MS));
          if (!mounted.current) throw new ApiError(0, "aborted", "The screen was left.");
          let detail: RequestDetail;
          try {
            detail = await getRequestDetail(id, projectId);
          } catch (error) {
            // A blip (network, a restart) is read again at the next tick; a 401 signs out.
            if (isApiError(error) && (error.status === 0 || error.status >= 500)) continue;
            throw error;
          }
          if (!isOpen(detail)) return detail;
          history.update(key, (item) => ({
            ...item,
            status: requestStatusOfState(detail.status),
            queuePosition: detail.queue_position,
            // A call that just left the queue, or a row the list gave without its start (a reload),
            // counts from when a slot started it.
            ...(detail.started_date && (item.status === "queued" || item.startedAt === undefined)
              ? { startedAt: Date.parse(detail.started_date) }
              : {}),
          }));
        }
      })().finally(() => followed.current.delete(id));
      followed.current.set(id, following);
      return following;
    },
    [history],
  );

  /** Puts a call's end on its row: the record, or the failure's row and dialog. */
  const finish = async (key: string, detail: RequestDetail) => {
    if (detail.status === "succeeded") {
      history.replace(key, fromDetail(detail));
      release(key);
      onSucceeded?.();
      onSuccess?.(fromDetail(detail));
      return;
    }
    if (detail.status === "canceled") {
      history.replace(key, fromDetail(detail));
      release(key);
      return;
    }
    await fail(key, errorOfDetail(detail), detail.id);
  };

  const fail = async (key: string, error: unknown, id?: string) => {
    const failure = runFailureOf(error, feature, { canPay, paymentsPath: PATHS.organizationPayments });
    if (failure.row === "remove") {
      history.remove(key);
      release(key);
    } else {
      const reason = failure.reason;
      history.update(key, (item) => ({
        ...item,
        ...(id ? { id } : {}),
        status: "error",
        errorMessage: reason,
      }));
    }
    if (failure.dialog) await openInfoModal(failure.dialog);
  };

  const runOne = async (request: FeatureRequest, formData: FormData, projectId: string) => {
    const key = `local-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const files: Record<string, string[]> = {};
    for (const [name, list] of Object.entries(request.files)) {
      files[name] = list.map((file) => URL.createObjectURL(file));
    }
    previews.current.set(key, Object.values(files).flat());
    history.prepend({
      key,
      local: true,
      id: key,
      startedAt: Date.now(),
      request_date: new Date().toISOString(),
      cost: 0,
      request_data: { files, body: request.body },
      response_data: {},
      status: "generating",
    } satisfies HistoryItem);
    setRunning((count) => count + 1);
    try {
      const submission = await submitFeatureCall(feature, formData, projectId, { headers: request.headers });
      if (submission.kind === "done") {
        onBalance(submission.answer.balance);
        history.replace(key, fromRecord(submission.answer.request));
        release(key);
        onSuccess?.(submission.answer.request);
        return;
      }
      const { detail } = submission;
      // The row is the server's from now on (a reload shows it), still with the local previews.
      history.update(key, (item) => ({
        ...item,
        id: detail.id,
        local: false,
        status: requestStatusOfState(detail.status),
        queuePosition: detail.queue_position,
        cost: detail.cost,
      }));
      const ended = isOpen(detail) ? await followUntilEnded(detail.id, key, projectId) : detail;
      await finish(key, ended);
    } catch (error) {
      if (isApiError(error) && error.code === "aborted") return;
      await fail(key, error);
    } finally {
      setRunning((count) => count - 1);
    }
  };

  return {
    running,
    run: async (request, projectId, count = 1) => {
      const formData = toFormData(request);
      // Parallel calls: each gets its placeholder; the button's working state ends with the last.
      await Promise.all(
        Array.from({ length: Math.max(1, count) }, () => runOne(request, formData, projectId)),
      );
    },
    discard: (key) => {
      history.remove(key);
      release(key);
    },
    follow: (item, projectId) => {
      if (followed.current.has(item.id)) return;
      followUntilEnded(item.id, item.key, projectId)
        .then((detail) => finish(item.key, detail))
        .catch(() => undefined);
    },
  };
}
