import { Alert, Anchor, Paper, Stack, Switch, Text } from "@mantine/core";
import {
  REQUIRE_TWO_FACTOR_DESCRIPTION,
  REQUIRE_TWO_FACTOR_LABEL,
  REQUIRE_TWO_FACTOR_OWNER_FIRST,
  SECURITY_PAGE_TITLE,
} from "@prism/contract";
import { IconAlertCircle, IconLock } from "@tabler/icons-react";
import { Link } from "react-router";
import { EmptyState, NoOrganizationSelected } from "../../../components/empty-state";
import { PageHeader } from "../../../components/page-header";
import { usePasskeys } from "../../../lib/account-security/get-passkeys";
import { useTwoFactorStatus } from "../../../lib/account-security/get-two-factor-status";
import { isApiError } from "../../../lib/api-client";
import { PATHS } from "../../../lib/paths";
import { useSession } from "../../../lib/session";
import { useUpdateOrganizationSecurity } from "../api/update-security";

function SecuritySettings({ organizationId, required }: { organizationId: string; required: boolean }) {
  const update = useUpdateOrganizationSecurity();
  const twoFactor = useTwoFactorStatus();
  const passkeys = usePasskeys();
  const ownerHasSecondFactor = twoFactor.data?.enabled === true || (passkeys.data?.length ?? 0) > 0;
  const known = twoFactor.isSuccess && passkeys.isSuccess;
  const error = update.error;

  return (
    <Paper withBorder p="lg" radius="md" maw={720}>
      <Stack gap="md">
        <Switch
          label={REQUIRE_TWO_FACTOR_LABEL}
          description={REQUIRE_TWO_FACTOR_DESCRIPTION}
          checked={required}
          disabled={update.isPending || (known && !ownerHasSecondFactor && !required)}
          onChange={(event) =>
            update.mutate({ organizationId, requireTwoFactor: event.currentTarget.checked })
          }
          size="md"
        />
        {known && !ownerHasSecondFactor && !required ? (
          <Alert color="yellow" icon={<IconAlertCircle size={18} aria-hidden />}>
            {REQUIRE_TWO_FACTOR_OWNER_FIRST}{" "}
            <Anchor component={Link} to={`${PATHS.settingsProfile}#two-factor`}>
              Set it up in your profile
            </Anchor>
          </Alert>
        ) : null}
        {error ? (
          <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
            {isApiError(error) ? error.message : "The setting could not be saved. Please try again."}
          </Alert>
        ) : null}
        <Text size="sm" c="dimmed">
          Changes to this setting are recorded in the audit log.
        </Text>
      </Stack>
    </Paper>
  );
}

/** /organization/security: the owner's security settings for the organization. */
export function SecurityPage() {
  const { selectedOrganization } = useSession();
  return (
    <>
      <PageHeader
        title={SECURITY_PAGE_TITLE}
        description="Sign-in rules for everyone in this organization."
      />
      {!selectedOrganization ? (
        <NoOrganizationSelected />
      ) : !selectedOrganization.permissions.owner ? (
        <EmptyState icon={<IconLock size={24} aria-hidden />} title="No access">
          Only the organization's owner can change its security settings.
        </EmptyState>
      ) : (
        <SecuritySettings
          key={selectedOrganization.id}
          organizationId={selectedOrganization.id}
          required={selectedOrganization.properties.requireTwoFactor === true}
        />
      )}
    </>
  );
}
