import type { TitledMessage } from "@prism/contract";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openInfoModal } from "../../../components/overlays/modals";
import { isApiError } from "../../../lib/api-client";
import { escapeHtml } from "../../../lib/html";

/**
 * Provider answers whose reason ("Your card was declined.", "We could not confirm this payment...")
 * helps the user more than the generic text.
 */
const PROVIDER_REFUSALS = new Set(["card-declined", "payment-failed", "payment-unconfirmed"]);

/**
 * The spec's dialog for a failed payment action. When the card provider refused, its reason
 * follows the spec's text as a second paragraph, escaped: it is server text.
 */
export async function showPaymentErrorDialog(dialog: TitledMessage, error: unknown): Promise<void> {
  if (isApiError(error) && PROVIDER_REFUSALS.has(error.code) && error.message) {
    await openInfoModal({
      title: dialog.title,
      html: `<p>${dialog.message}</p><p><strong>Reason:</strong> ${escapeHtml(error.message)}</p>`,
    });
    return;
  }
  await showErrorDialog(dialog, error);
}
