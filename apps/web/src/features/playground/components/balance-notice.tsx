import { Alert, Anchor, Text } from "@mantine/core";
import { ADD_FUNDS_LABEL, BALANCE_SHORT_ASK, balanceShortText } from "@prism/contract";
import { IconWallet } from "@tabler/icons-react";
import { Link } from "react-router";
import { PATHS } from "../../../lib/paths";
import { useCan } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";

/**
 * Beside the price when the organization's balance cannot pay for the call: the way out (Add funds) is
 * offered before a click ends in Insufficient Balance. The button stays enabled, since the balance
 * shown may be older than the server's (an auto recharge, another tab).
 */
export function BalanceNotice({ cost }: { cost: number | undefined }) {
  const { selectedOrganization } = useSession();
  const canPay = useCan("organization.payments");
  if (!selectedOrganization || cost === undefined || selectedOrganization.balance >= cost) return null;
  return (
    <Alert
      variant="light"
      color="yellow"
      p="xs"
      icon={<IconWallet size={16} aria-hidden />}
      data-testid="balance-notice"
    >
      <Text size="sm">
        {balanceShortText(selectedOrganization.balance)}{" "}
        {canPay ? (
          <Anchor component={Link} to={PATHS.organizationPayments} size="sm" fw={600}>
            {ADD_FUNDS_LABEL}
          </Anchor>
        ) : (
          BALANCE_SHORT_ASK
        )}
      </Text>
    </Alert>
  );
}
