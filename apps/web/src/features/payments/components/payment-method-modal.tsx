import { Center, Group, Loader, Modal, Text } from "@mantine/core";
import { ERROR_DIALOGS } from "@prism/contract";
import { lazy, Suspense } from "react";
import { withLoading } from "../../../components/overlays/loading-store";
import { isApiError } from "../../../lib/api-client";
import { usePublicConfig } from "../../../lib/env";
import { confirmSandboxSetup, useFinishSetupPayment } from "../api/setup-payment";
import type { CardErrors } from "../lib/card";
import { showPaymentErrorDialog } from "../lib/payment-errors";
import { SandboxBadge } from "./sandbox-badge";
import { type SandboxCard, SandboxCardForm } from "./sandbox-card-form";

// Stripe's code is fetched only by deployments that use Stripe.
const StripeCardForm = lazy(async () => ({
  default: (await import("./stripe-card-form")).StripeCardForm,
}));

/** The form field of a sandbox 400, from the request field the server names (ErrorBody.field). */
const CARD_FIELDS: Readonly<Record<string, keyof CardErrors>> = {
  number: "number",
  expMonth: "expiry",
  expYear: "expiry",
  cvc: "cvc",
};

function fieldOfRefusal(field: string | undefined): keyof CardErrors {
  return (field && CARD_FIELDS[field]) || "number";
}

/**
 * The "Add Payment Method" modal of the spec: the provider's card form for a setup intent already
 * started (`clientSecret`), with Save and Cancel. Resolves `onSaved` once the card is stored and the
 * payment info reloaded.
 */
export function PaymentMethodModal({
  organizationId,
  clientSecret,
  onClose,
  onSaved,
}: {
  organizationId: string;
  /** Null keeps the modal closed. */
  clientSecret: string | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const config = usePublicConfig();
  const finishSetup = useFinishSetupPayment(organizationId);

  const finish = async (setupIntentId: string) => {
    try {
      await withLoading(() => finishSetup(setupIntentId));
      onSaved();
    } catch (error) {
      await showPaymentErrorDialog(ERROR_DIALOGS.paymentMethodUpdate, error);
    }
  };

  const submitSandboxCard = async (card: SandboxCard): Promise<CardErrors | undefined> => {
    if (!clientSecret) return undefined;
    let setupIntentId: string;
    try {
      ({ setupIntentId } = await withLoading(() => confirmSandboxSetup({ clientSecret, ...card })));
    } catch (error) {
      if (isApiError(error) && error.status === 400) return { [fieldOfRefusal(error.field)]: error.message };
      // Not awaited: the form shows the refusal under the number while the dialog is open.
      void showPaymentErrorDialog(ERROR_DIALOGS.paymentMethodUpdate, error);
      return isApiError(error) && error.code === "card-declined" ? { number: error.message } : undefined;
    }
    await finish(setupIntentId);
    return undefined;
  };

  const provider = config?.payments.provider;
  const publishableKey = config?.payments.publishableKey;

  return (
    <Modal
      opened={clientSecret !== null}
      onClose={onClose}
      centered
      size="md"
      closeOnClickOutside={false}
      title={
        <Group gap="sm">
          <Text fw={600} fz="lg">
            Add Payment Method
          </Text>
          <SandboxBadge size="sm" />
        </Group>
      }
    >
      {clientSecret === null ? null : provider === "stripe" && publishableKey ? (
        <Suspense
          fallback={
            <Center py="xl">
              <Loader size="sm" />
            </Center>
          }
        >
          <StripeCardForm
            publishableKey={publishableKey}
            clientSecret={clientSecret}
            onConfirmed={finish}
            onCancel={onClose}
          />
        </Suspense>
      ) : provider === "sandbox" ? (
        <SandboxCardForm onSubmit={submitSandboxCard} onCancel={onClose} />
      ) : (
        <Text size="sm" c="dimmed">
          Card payments are not configured on this deployment.
        </Text>
      )}
    </Modal>
  );
}
