import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { IconAlertTriangle, IconLock } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { withLoading } from "../../../components/overlays/loading-store";

// One Stripe.js per publishable key for the life of the page: loading it again would add a script.
const stripePromises = new Map<string, Promise<Stripe | null>>();

function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = stripePromises.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    stripePromises.set(publishableKey, promise);
  }
  return promise;
}

function StripeSetupForm({
  onConfirmed,
  onCancel,
}: {
  onConfirmed: (setupIntentId: string) => Promise<string | undefined>;
  onCancel: () => void;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  // A card our server's charge check declined after Stripe confirmed it, in the provider's words.
  const [declined, setDeclined] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    // A failed card confirmation only hides the loader; Stripe's element shows why.
    const result = await withLoading(() => stripe.confirmSetup({ elements, redirect: "if_required" }));
    if (result.error || !result.setupIntent) return;
    setDeclined(await onConfirmed(result.setupIntent.id));
  };

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Card details">
      <Stack gap="md">
        <PaymentElement onReady={() => setReady(true)} options={{ layout: "tabs" }} />
        {declined ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
            {declined}
          </Alert>
        ) : null}
        <Group justify="space-between" mt="xs">
          <Group gap={6} c="dimmed">
            <IconLock size={14} aria-hidden />
            <Text size="xs">Card details go straight to Stripe.</Text>
          </Group>
          <Group gap="sm">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={!stripe || !ready}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/** The card form of the Stripe provider: Stripe's Payment Element confirming the setup intent. */
export function StripeCardForm({
  publishableKey,
  clientSecret,
  onConfirmed,
  onCancel,
}: {
  publishableKey: string;
  clientSecret: string;
  onConfirmed: (setupIntentId: string) => Promise<string | undefined>;
  onCancel: () => void;
}) {
  return (
    <Elements
      stripe={stripeFor(publishableKey)}
      options={{ clientSecret, appearance: { theme: "stripe", variables: { colorPrimary: "#5f40f1" } } }}
    >
      <StripeSetupForm onConfirmed={onConfirmed} onCancel={onCancel} />
    </Elements>
  );
}
