import type { Feature, HistoryRequestRecord } from "@prism/contract";
import type { SnippetValue } from "@prism/contract/snippets";
import { useEffect, useRef, useState } from "react";
import { openInfoModal } from "../../../components/overlays/modals";
import { PATHS } from "../../../lib/paths";
import { useCan } from "../../../lib/permissions";
import { runFailureOf } from "../lib/run-failure";
import { callFeature } from "./call-feature";
import { fromRecord, type HistoryItem, type PlaygroundHistory } from "./use-history";

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
}

/**
 * A playground screen's calls: a generating row at the top showing the chosen files, swapped for the
 * stored record on success (the new balance reported), or triaged on failure (`runFailureOf`).
 * The placeholder's previews are object URLs: each is revoked once its row no longer shows it (the
 * record replaced it, the row went away) and all of them when the screen unmounts.
 */
export function useFeatureRun({
  feature,
  history,
  onBalance,
  onSuccess,
}: {
  feature: Pick<Feature, "endpoint" | "name" | "inputs" | "failureDialog">;
  history: Pick<PlaygroundHistory, "prepend" | "replace" | "update" | "remove">;
  onBalance: (balance: number) => void;
  onSuccess?: (record: HistoryRequestRecord) => void;
}): FeatureRun {
  const [running, setRunning] = useState(0);
  const previews = useRef(new Map<string, string[]>());
  const canPay = useCan("organization.payments");

  const release = (key: string) => {
    for (const url of previews.current.get(key) ?? []) URL.revokeObjectURL(url);
    previews.current.delete(key);
  };

  useEffect(() => {
    const held = previews.current;
    return () => {
      for (const urls of held.values()) for (const url of urls) URL.revokeObjectURL(url);
      held.clear();
    };
  }, []);

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
      const answer = await callFeature(feature, formData, projectId, { headers: request.headers });
      onBalance(answer.balance);
      history.replace(key, fromRecord(answer.request));
      release(key);
      onSuccess?.(answer.request);
    } catch (error) {
      const failure = runFailureOf(error, feature, { canPay, paymentsPath: PATHS.organizationPayments });
      if (failure.row === "remove") {
        history.remove(key);
        release(key);
      } else {
        const reason = failure.reason;
        history.update(key, (item) => ({ ...item, status: "error", errorMessage: reason }));
      }
      if (failure.dialog) await openInfoModal(failure.dialog);
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
  };
}
