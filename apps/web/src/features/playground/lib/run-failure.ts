import {
  ADD_FUNDS_LABEL,
  AUDIO_TOO_LARGE,
  AUDIO_TOO_LONG,
  AUDIO_UNREADABLE,
  BUDGET_REACHED_TITLE,
  ERROR_DIALOGS,
  type Feature,
  FILE_TYPE_NOT_ACCEPTED_TITLE,
  IMAGE_SIZE_LIMIT_TITLE,
  IMAGE_UNREADABLE,
  OPEN_PAYMENTS_LABEL,
} from "@prism/contract";
import { errorDialogOf, type InfoDialog } from "../../../components/overlays/error-dialog";
import { isApiError } from "../../../lib/api-client";
import { escapeHtml } from "../../../lib/html";

/**
 * What a failed feature call does to the screen: its placeholder row either goes away (the call
 * never counted: signed out, no funds, refused upload) or stays as Generation Error with the reason;
 * then a dialog, if any.
 */
export type RunFailure =
  | { row: "remove"; dialog: InfoDialog | null }
  | { row: "error"; reason: string | undefined; dialog: InfoDialog | null };

/** Whether the user may pay (organization.payments), and where funds are added. */
export interface RunFailureOptions {
  canPay: boolean;
  paymentsPath: string;
}

const NO_PAYMENTS: RunFailureOptions = { canPay: false, paymentsPath: "" };

/** Upload refusals whose server message is the text to show (limits checked again by the server). */
const UPLOAD_ERROR_STATUSES = new Set([413, 415, 422]);

export function uploadErrorTitle(code: string, feature: Pick<Feature, "inputs">): string {
  if (code === "unsupported-file-type") return FILE_TYPE_NOT_ACCEPTED_TITLE;
  if (feature.inputs.files.some((input) => input.kind === "audio")) {
    if (code === "unreadable-file") return AUDIO_UNREADABLE.title;
    if (code === "file-too-large" || code === "payload-too-large") return AUDIO_TOO_LARGE.title;
    if (code === "audio-too-long") return AUDIO_TOO_LONG.title;
  }
  if (code === "unreadable-file") return IMAGE_UNREADABLE.title;
  if (code === "file-too-large" || code === "image-dimensions-exceeded" || code === "payload-too-large") {
    return IMAGE_SIZE_LIMIT_TITLE;
  }
  return "Invalid Request";
}

/** The triage of a failed call: which row outcome and which dialog, from the error alone. */
export function runFailureOf(
  error: unknown,
  feature: Pick<Feature, "name" | "inputs" | "failureDialog">,
  options: RunFailureOptions = NO_PAYMENTS,
): RunFailure {
  if (!isApiError(error)) {
    // A bug or an unexpected throw: the row fails without a reason the user could act on.
    return {
      row: "error",
      reason: undefined,
      dialog: feature.failureDialog ? errorDialogOf(feature.failureDialog, error) : null,
    };
  }
  // The api client is already signing the user out.
  if (error.status === 401) return { row: "remove", dialog: null };
  if (error.code === "first-deposit-required") {
    // The organization lost or never had its first deposit since the page loaded (training lock).
    return {
      row: "remove",
      dialog: { title: feature.failureDialog?.title ?? feature.name, html: escapeHtml(error.message) },
    };
  }
  if (error.code === "budget-reached") {
    return {
      row: "remove",
      dialog: {
        title: BUDGET_REACHED_TITLE,
        html: escapeHtml(error.message),
        ...(options.canPay ? { action: { label: OPEN_PAYMENTS_LABEL, to: options.paymentsPath } } : {}),
      },
    };
  }
  if (error.status === 402) {
    return {
      row: "remove",
      dialog: {
        title: ERROR_DIALOGS.insufficientBalance.title,
        html: ERROR_DIALOGS.insufficientBalance.message,
        // The way out, for those who may pay: the spec's dialog alone had only Close.
        ...(options.canPay ? { action: { label: ADD_FUNDS_LABEL, to: options.paymentsPath } } : {}),
      },
    };
  }
  if (error.code === "unprocessable-input" || error.status === 400) {
    // The server refused these inputs (400) or the provider could not process them (e.g. no face
    // found): the row fails with the reason (Generation Error, no modal), and the screens that have a
    // failure dialog (Error Inpainting Image, ...) show it with that reason.
    return {
      row: "error",
      reason: error.message,
      dialog: feature.failureDialog
        ? { title: feature.failureDialog.title, html: escapeHtml(error.message) }
        : null,
    };
  }
  if (UPLOAD_ERROR_STATUSES.has(error.status)) {
    return {
      row: "remove",
      dialog: { title: uploadErrorTitle(error.code, feature), html: escapeHtml(error.message) },
    };
  }
  // 502 feature-failed, 503, 504 and transport failures (timeout included): Generation Error.
  return {
    row: "error",
    reason: error.message,
    dialog: feature.failureDialog ? errorDialogOf(feature.failureDialog, error) : null,
  };
}
