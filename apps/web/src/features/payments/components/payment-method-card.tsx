import {
  Badge,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { CHANGES_SAVED, cardBrandLabel, ERROR_DIALOGS, type PaymentCard } from "@prism/contract";
import { IconCreditCard, IconCreditCardOff, IconPencil, IconPlus, IconTrash } from "@tabler/icons-react";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { CardBrandLogo } from "../../../components/card-brand-logo";
import { countryName } from "../../../components/countries";
import { withLoading } from "../../../components/overlays/loading-store";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { asksToAddCard } from "../../../lib/paths";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { useDeletePayment } from "../api/delete-payment";
import { usePaymentInfo } from "../api/get-payment-info";
import { startSetupPayment } from "../api/setup-payment";
import { showPaymentErrorDialog } from "../lib/payment-errors";
import { PaymentMethodModal } from "./payment-method-modal";

function CardDetail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: "0.04em" }}>
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {children}
      </Text>
    </Stack>
  );
}

/** The saved card: brand logo, funding, last four digits, issuing country and expiry. */
export function SavedCard({ card }: { card: PaymentCard }) {
  const expiry = `${String(card.expMonth).padStart(2, "0")}/${card.expYear}`;
  return (
    <Stack gap="md" data-testid="saved-card">
      <Group gap="md" wrap="nowrap">
        <CardBrandLogo brand={card.brand} width={54} />
        <Stack gap={0} miw={0}>
          <Text fw={600} ff="monospace">
            {/* Read out as words: a label on plain text is ignored by screen readers. */}
            <span aria-hidden>
              {cardBrandLabel(card.brand)} •••• {card.last4}
            </span>
            <VisuallyHidden>
              {cardBrandLabel(card.brand)} ending in {card.last4}
            </VisuallyHidden>
          </Text>
          <Text size="xs" c="dimmed">
            Expires {expiry}
          </Text>
        </Stack>
      </Group>
      <Group gap="xl">
        <CardDetail label="Funding">
          <Badge variant="light" color="gray" radius="sm" tt="capitalize">
            {card.funding || "unknown"}
          </Badge>
        </CardDetail>
        <CardDetail label="Country">{countryName(card.country) ?? "—"}</CardDetail>
        <CardDetail label="Expiry">{expiry}</CardDetail>
      </Group>
    </Stack>
  );
}

/**
 * The Payment Method box of the spec (also the home page's payment card): the empty state
 * with "Add a Payment Method", or Your Card with Change and Delete. Renders nothing without
 * organization.payments. `withActions={false}` (home) shows a saved card read-only, and the empty
 * state a short "Add" that opens the same add-card form.
 */
export function PaymentMethodCard({ withActions = true }: { withActions?: boolean }) {
  const { selectedOrganization } = useSession();
  const { card, isLoading, isError, refetch } = usePaymentInfo(selectedOrganization);
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const organizationId = selectedOrganization?.id ?? "";
  const deletePayment = useDeletePayment(organizationId);

  const startSetup = useCallback(async () => {
    try {
      const answer = await withLoading(() => startSetupPayment(organizationId));
      setClientSecret(answer.clientSecret);
    } catch (error) {
      await showPaymentErrorDialog(ERROR_DIALOGS.paymentMethodUpdate, error);
    }
  }, [organizationId]);

  // Arriving from "Add a Payment Method" (the welcome popup, Home's first steps) opens the card dialog
  // at once for an organization with no card; the request is used up either way.
  const location = useLocation();
  const navigate = useNavigate();
  const mayPay = canInOrganization(selectedOrganization, "organization.payments");
  const arrivedToAdd = withActions && mayPay && asksToAddCard(location.state);
  const cardKnownMissing = !isLoading && !isError && card === null;
  // Once per arrival, also under StrictMode's doubled effects.
  const handledArrival = useRef<string | null>(null);
  useEffect(() => {
    if (!arrivedToAdd || isLoading || handledArrival.current === location.key) return;
    handledArrival.current = location.key;
    navigate(".", { replace: true, state: null });
    if (cardKnownMissing) void startSetup();
  }, [arrivedToAdd, isLoading, cardKnownMissing, location.key, navigate, startSetup]);

  if (!selectedOrganization || !mayPay) return null;

  const confirmDelete = async () => {
    const confirmed = await openConfirmModal({
      title: "Delete Payment Method",
      message:
        "Are you sure you want to delete this card? Recharges and auto recharge stop until you add a new payment method.",
      variant: "delete",
    });
    if (!confirmed) return;
    try {
      await withLoading(() => deletePayment.mutateAsync());
      notify(CHANGES_SAVED);
    } catch (error) {
      await showPaymentErrorDialog(ERROR_DIALOGS.paymentMethodDelete, error);
    }
  };

  let body: ReactNode;
  if (isLoading) {
    body = (
      <Group gap="md" role="progressbar" aria-label="Loading the payment method">
        <Skeleton width={54} height={36} radius="sm" />
        <Stack gap={6} style={{ flex: 1 }}>
          <Skeleton height={14} width="50%" />
          <Skeleton height={10} width="30%" />
        </Stack>
      </Group>
    );
  } else if (isError) {
    body = (
      <Stack align="center" gap="xs" py="md" ta="center">
        <ThemeIcon size={40} radius="xl" variant="light" color="red">
          <IconCreditCardOff size={20} aria-hidden />
        </ThemeIcon>
        <Text size="sm" c="dimmed">
          The payment method could not be loaded.
        </Text>
        <Button size="xs" variant="light" onClick={() => void refetch()}>
          Try again
        </Button>
      </Stack>
    );
  } else if (card) {
    body = (
      <Stack gap="lg">
        <Text size="sm" fw={600}>
          Your Card
        </Text>
        <SavedCard card={card} />
        {withActions ? (
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconPencil size={16} aria-hidden />}
              onClick={() => void startSetup()}
            >
              Change
            </Button>
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => void confirmDelete()}
            >
              Delete
            </Button>
          </Group>
        ) : null}
      </Stack>
    );
  } else {
    body = (
      <Stack align="center" gap="xs" py="md" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconCreditCard size={24} aria-hidden />
        </ThemeIcon>
        <Text fw={600}>No payment method yet</Text>
        <Text size="sm" c="dimmed" maw={320}>
          Add a card to recharge your balance and turn on auto recharge.
        </Text>
        <Button mt="xs" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => void startSetup()}>
          {withActions ? "Add a Payment Method" : "Add"}
        </Button>
      </Stack>
    );
  }

  return (
    <Paper withBorder p="xl" component="section" aria-label="Payment Method" h="100%">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={3} fz="lg">
            Payment Method
          </Title>
          <Text size="sm" c="dimmed">
            The card recharges and auto recharge are charged to.
          </Text>
        </Stack>
        {body}
      </Stack>
      <PaymentMethodModal
        organizationId={organizationId}
        clientSecret={clientSecret}
        askBillingDetails={card === null}
        onClose={() => setClientSecret(null)}
        onSaved={() => setClientSecret(null)}
      />
    </Paper>
  );
}
