import type { TitledMessage } from "@prism/contract";
import { isApiError } from "../../lib/api-client";
import { escapeHtml } from "../../lib/html";
import { openInfoModal } from "./modals";

/**
 * The error dialog of a failed action. A 401 shows nothing: the session has ended and
 * the api client is already signing the user out. Nor does a `reauthentication-required` that reaches
 * here: the user was asked to confirm it was them and chose Cancel. A 409 is a refusal whose spec text the server sends
 * ("You must belong to at least one active organization..."), so that text replaces the generic one.
 */
export async function showErrorDialog(dialog: TitledMessage, error?: unknown): Promise<void> {
  const shown = errorDialogOf(dialog, error);
  if (shown) await openInfoModal(shown);
}

/** What `showErrorDialog` shows (title and HTML), or null for a 401. */
export function errorDialogOf(dialog: TitledMessage, error?: unknown): InfoDialog | null {
  if (isApiError(error) && (error.status === 401 || error.code === "reauthentication-required")) return null;
  const html =
    isApiError(error) && error.status === 409 && error.message ? escapeHtml(error.message) : dialog.message;
  return { title: dialog.title, html };
}

/** A dialog with a title and an HTML body, as `openInfoModal` shows it. */
export interface InfoDialog {
  title: string;
  html: string;
  /** A button beside Close that leads to the page where the user can act (e.g. Add funds). */
  action?: DialogAction;
}

/** A dialog's way out: a label and the console route it opens. */
export interface DialogAction {
  label: string;
  to: string;
}
