import type { TitledMessage } from "@prism/contract";
import { isApiError } from "../../lib/api-client";
import { escapeHtml } from "../../lib/html";
import { openInfoModal } from "./modals";

/**
 * The error dialog of a failed action. A 401 shows nothing: the session has ended and
 * the api client is already signing the user out. A 409 is a refusal whose spec text the server sends
 * ("You must belong to at least one active organization..."), so that text replaces the generic one.
 */
export async function showErrorDialog(dialog: TitledMessage, error?: unknown): Promise<void> {
  if (isApiError(error) && error.status === 401) return;
  const html =
    isApiError(error) && error.status === 409 && error.message ? escapeHtml(error.message) : dialog.message;
  await openInfoModal({ title: dialog.title, html });
}
