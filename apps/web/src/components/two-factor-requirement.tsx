import { Alert } from "@mantine/core";
import { TWO_FACTOR_ENROLMENT_REQUIRED } from "@prism/contract";
import { IconShieldLock } from "@tabler/icons-react";
import { useEffect } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { usePasskeys } from "../lib/account-security/get-passkeys";
import { useTwoFactorStatus } from "../lib/account-security/get-two-factor-status";
import { PATHS } from "../lib/paths";
import { useSession } from "../lib/session";

/** The query flag the profile page reads to say why the user was sent there. */
export const TWO_FACTOR_REQUIRED_PARAM = "two-factor-required";

/**
 * An organization whose owner requires two-factor sign-in refuses every call of a member without a
 * second factor (403 `two-factor-enrolment-required`); rather than a page of errors, such a member is
 * sent to Profile → Two-factor authentication with the reason, until they enrol. Returns true while the
 * routed page must wait (the check is running, or the redirect is on its way), so that it makes no
 * call the server would refuse. If the check itself fails the page shows: the server still enforces.
 */
export function useTwoFactorRequirement(): boolean {
  const { selectedOrganization } = useSession();
  const required = selectedOrganization?.properties.requireTwoFactor === true;
  const twoFactor = useTwoFactorStatus(required);
  const passkeys = usePasskeys(required);
  const location = useLocation();
  const navigate = useNavigate();
  const enrolled = twoFactor.data?.enabled === true || (passkeys.data?.length ?? 0) > 0;
  const missing = required && twoFactor.isSuccess && passkeys.isSuccess && !enrolled;
  const checking = required && (twoFactor.isPending || passkeys.isPending);
  const onProfile = location.pathname === PATHS.settingsProfile;
  useEffect(() => {
    if (missing && !onProfile) {
      void navigate(`${PATHS.settingsProfile}?${TWO_FACTOR_REQUIRED_PARAM}=1#two-factor`, { replace: true });
    }
  }, [missing, onProfile, navigate]);
  return !onProfile && (checking || missing);
}

/** The profile page's explanation when the user was sent there by the requirement. */
export function TwoFactorRequiredNotice() {
  const [searchParams] = useSearchParams();
  if (searchParams.get(TWO_FACTOR_REQUIRED_PARAM) === null) return null;
  return (
    <Alert
      color="yellow"
      icon={<IconShieldLock size={18} aria-hidden />}
      title="Two-factor sign-in required"
      mb="lg"
      maw={1080}
    >
      {TWO_FACTOR_ENROLMENT_REQUIRED}
    </Alert>
  );
}
