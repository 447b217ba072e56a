import { SimpleGrid, Stack } from "@mantine/core";
import { IconLock } from "@tabler/icons-react";
import { EmptyState, NoOrganizationSelected } from "../../../components/empty-state";
import { PageHeader } from "../../../components/page-header";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { AlertsCard } from "./alerts-card";
import { AutoRechargeCard } from "./auto-recharge-card";
import { PaymentMethodCard } from "./payment-method-card";
import { RechargePanel } from "./recharge-panel";
import { SandboxBadge } from "./sandbox-badge";

/** /organization/payments: Payment Method, Recharge Now and Auto Recharge. */
export function PaymentsPage() {
  const { selectedOrganization } = useSession();
  const allowed = canInOrganization(selectedOrganization, "organization.payments");
  return (
    <>
      <PageHeader
        title="Payments"
        description="Your payment method, manual recharges and automatic top-ups."
        actions={<SandboxBadge visibleFrom="sm" />}
      />
      {!selectedOrganization ? (
        <NoOrganizationSelected />
      ) : !allowed ? (
        <EmptyState icon={<IconLock size={24} aria-hidden />} title="No access">
          You do not have permission to manage this organization's payments.
        </EmptyState>
      ) : (
        <Stack gap="lg" key={selectedOrganization.id}>
          <SandboxBadge hiddenFrom="sm" />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <PaymentMethodCard />
            <RechargePanel />
          </SimpleGrid>
          <AutoRechargeCard />
          <AlertsCard />
        </Stack>
      )}
    </>
  );
}
