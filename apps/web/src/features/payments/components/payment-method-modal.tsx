import { Alert, Button, Center, Group, Loader, Modal, Stack, Text } from "@mantine/core";
import { CHANGES_SAVED, ERROR_DIALOGS } from "@prism/contract";
import { IconFileInvoice } from "@tabler/icons-react";
import { lazy, Suspense, useState } from "react";
import { withLoading } from "../../../components/overlays/loading-store";
import { notify } from "../../../components/overlays/notify";
import { isApiError } from "../../../lib/api-client";
import { usePublicConfig } from "../../../lib/env";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { BillingDetailsForm, hasBillingDetails } from "../../billing";
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

/** The card provider's own words for a card it refused: shown in the card form, which stays open. */
function declineOf(error: unknown): string | undefined {
  return isApiError(error) && error.code === "card-declined" && error.message ? error.message : undefined;
}

/** What invoices say without billing details, for whoever adds the first card. */
function missingDetailsText(organizationName: string): string {
  return `Without billing details, invoices of ${organizationName} are addressed to its name alone, with no address or tax ID.`;
}

/**
 * After the first card, the step that asks who invoices are addressed to: the billing form for those
 * who may edit it, otherwise a note saying the details will be missing and who can add them.
 */
function BillingStep({ onDone }: { onDone: () => void }) {
  const { selectedOrganization } = useSession();
  if (!selectedOrganization) return null;
  const intro = (
    <Alert variant="light" color="blue" icon={<IconFileInvoice size={18} aria-hidden />} p="sm">
      <Text size="sm">Your card is saved. {missingDetailsText(selectedOrganization.name)}</Text>
    </Alert>
  );
  if (!canInOrganization(selectedOrganization, "organization.billing")) {
    return (
      <Stack gap="md">
        {intro}
        <Text size="sm">
          Members with the Billing right can add them on the Billing page; the next invoices will use them.
        </Text>
        <Group justify="flex-end">
          <Button onClick={onDone} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <BillingDetailsForm
      organization={selectedOrganization}
      label="Billing details for invoices"
      onSaved={() => {
        notify(CHANGES_SAVED);
        onDone();
      }}
    >
      {({ fields, saving }) => (
        <Stack gap="md">
          {intro}
          {fields}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onDone} disabled={saving}>
              Skip for now
            </Button>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      )}
    </BillingDetailsForm>
  );
}

/**
 * The "Add Payment Method" modal of the spec: the provider's card form for a setup intent already
 * started (`clientSecret`), with Save and Cancel. A card the provider declines is said in the form,
 * which stays open. Says "Changes have been saved!" once the card is stored and the payment info
 * reloaded, then calls `onSaved`; on the organization's first card (`askBillingDetails`) it first asks
 * for the billing details its invoices lack.
 */
export function PaymentMethodModal({
  organizationId,
  clientSecret,
  askBillingDetails = false,
  onClose,
  onSaved,
}: {
  organizationId: string;
  /** Null keeps the modal closed. */
  clientSecret: string | null;
  /** The organization has no card yet: its first invoice is near. */
  askBillingDetails?: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const config = usePublicConfig();
  const { selectedOrganization } = useSession();
  const finishSetup = useFinishSetupPayment(organizationId);
  const [step, setStep] = useState<"card" | "billing">("card");

  const close = () => {
    setStep("card");
    onClose();
  };
  const done = () => {
    setStep("card");
    onSaved();
  };

  /** Stores the confirmed card; a decline comes back as the provider's words for the form. */
  const finish = async (setupIntentId: string): Promise<string | undefined> => {
    try {
      await withLoading(() => finishSetup(setupIntentId));
    } catch (error) {
      const declined = declineOf(error);
      if (declined) return declined;
      await showPaymentErrorDialog(ERROR_DIALOGS.paymentMethodUpdate, error);
      return undefined;
    }
    notify(CHANGES_SAVED);
    if (askBillingDetails && selectedOrganization && !hasBillingDetails(selectedOrganization)) {
      setStep("billing");
      return undefined;
    }
    done();
    return undefined;
  };

  const submitSandboxCard = async (card: SandboxCard): Promise<CardErrors | undefined> => {
    if (!clientSecret) return undefined;
    let setupIntentId: string;
    try {
      ({ setupIntentId } = await withLoading(() => confirmSandboxSetup({ clientSecret, ...card })));
    } catch (error) {
      if (isApiError(error) && error.status === 400) return { [fieldOfRefusal(error.field)]: error.message };
      const declined = declineOf(error);
      if (declined) return { number: declined };
      await showPaymentErrorDialog(ERROR_DIALOGS.paymentMethodUpdate, error);
      return undefined;
    }
    const declined = await finish(setupIntentId);
    return declined ? { number: declined } : undefined;
  };

  const provider = config?.payments.provider;
  const publishableKey = config?.payments.publishableKey;

  return (
    <Modal
      opened={clientSecret !== null}
      onClose={step === "billing" ? done : close}
      centered
      size={step === "billing" ? "lg" : "md"}
      closeOnClickOutside={false}
      title={
        step === "billing" ? (
          <Text fw={600} fz="lg">
            Billing Details
          </Text>
        ) : (
          <Group gap="sm">
            <Text fw={600} fz="lg">
              Add Payment Method
            </Text>
            <SandboxBadge size="sm" />
          </Group>
        )
      }
    >
      {clientSecret === null ? null : step === "billing" ? (
        <BillingStep onDone={done} />
      ) : provider === "stripe" && publishableKey ? (
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
            onCancel={close}
          />
        </Suspense>
      ) : provider === "sandbox" ? (
        <SandboxCardForm onSubmit={submitSandboxCard} onCancel={close} />
      ) : (
        <Text size="sm" c="dimmed">
          Card payments are not configured on this deployment.
        </Text>
      )}
    </Modal>
  );
}
