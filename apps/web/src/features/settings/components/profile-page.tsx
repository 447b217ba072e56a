import {
  Button,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { schemaResolver, useForm } from "@mantine/form";
import {
  ERROR_DIALOGS,
  LOGOUT_ALL_SESSIONS_CONFIRM,
  NAME_MAX_LENGTH,
  PASSKEYS_SECTION_TITLE,
  PASSWORD_CHANGED,
  PASSWORD_MIN_LENGTH,
  PROFILE_UPDATED,
  SIGNED_IN_DEVICES_SECTION_TITLE,
  TWO_FACTOR_SECTION_TITLE,
  updateProfileRequest,
} from "@prism/contract";
import {
  IconDevices,
  IconFingerprint,
  IconLock,
  IconLogout,
  IconShieldLock,
  IconUser,
} from "@tabler/icons-react";
import type { ReactNode } from "react";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { PageHeader } from "../../../components/page-header";
import { PasswordFeedback } from "../../../components/password-feedback";
import { TwoFactorRequiredNotice } from "../../../components/two-factor-requirement";
import { checkNewPassword } from "../../../lib/new-password";
import { useUserInfo } from "../../../lib/session";
import { useChangePassword } from "../api/change-password";
import { useLogoutAllSessions } from "../api/logout-all-sessions";
import { useUpdateProfile } from "../api/update-profile";
import { PasskeysSection } from "./passkeys-section";
import { SignedInDevices } from "./signed-in-devices";
import { TwoFactorSection } from "./two-factor-section";

function Section({
  title,
  description,
  icon,
  children,
  id,
}: {
  title: string;
  description: string;
  icon: ReactNode;
  children: ReactNode;
  /** The anchor a link may jump to (`#two-factor`). */
  id?: string;
}) {
  return (
    <Paper withBorder p="xl" component="section" aria-label={title} id={id}>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="xl">
        <Stack gap={6}>
          <Group gap="xs" c="prism.7">
            {icon}
            <Title order={3} fz="lg" c="dark">
              {title}
            </Title>
          </Group>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        <div style={{ gridColumn: "span 2" }}>{children}</div>
      </SimpleGrid>
    </Paper>
  );
}

function ProfileForm() {
  const userInfo = useUserInfo();
  const updateProfile = useUpdateProfile();
  // The request's own schema checks the names (both required, after trimming). Its one message sits
  // under the fields, so editing either field clears the whole complaint, not only that field's mark.
  const form = useForm({
    initialValues: { firstName: userInfo.firstName, lastName: userInfo.lastName },
    validate: schemaResolver(updateProfileRequest),
    onValuesChange: () => form.clearErrors(),
  });
  const complaint = Object.values(form.errors).find(Boolean);

  const submit = (values: typeof form.values) => {
    if (updateProfile.isPending) return;
    updateProfile.mutate(
      { firstName: values.firstName.trim(), lastName: values.lastName.trim() },
      {
        onSuccess: () => notify(PROFILE_UPDATED),
        onError: (error) => void showErrorDialog(ERROR_DIALOGS.updateProfile, error),
      },
    );
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Your Profile">
      <Stack gap="md">
        <TextInput label="Email" value={userInfo.email} readOnly variant="filled" />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="First Name"
            autoComplete="given-name"
            {...form.getInputProps("firstName")}
            error={Boolean(form.errors.firstName)}
            maxLength={NAME_MAX_LENGTH}
            withAsterisk
          />
          <TextInput
            label="Last Name"
            autoComplete="family-name"
            {...form.getInputProps("lastName")}
            error={Boolean(form.errors.lastName)}
            maxLength={NAME_MAX_LENGTH}
            withAsterisk
          />
        </SimpleGrid>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" c="red.7" role="alert">
            {complaint ?? null}
          </Text>
          <Button type="submit" loading={updateProfile.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ChangePasswordForm() {
  const changePassword = useChangePassword();
  // Only an empty password gets a message (on submit, cleared by editing it); a failing rule is named
  // by the live feedback and only blocks the save.
  const form = useForm({
    initialValues: { password: "", confirmPassword: "" },
    validate: ({ password, confirmPassword }) => ({
      password: checkNewPassword(password, confirmPassword).error,
    }),
  });
  const { values } = form;

  const submit = form.onSubmit(({ password, confirmPassword }) => {
    if (checkNewPassword(password, confirmPassword).blocked) return;
    changePassword.mutate(
      { password },
      {
        onSuccess: () => {
          form.reset();
          notify(PASSWORD_CHANGED);
        },
        onError: (error) => void showErrorDialog(ERROR_DIALOGS.changePassword, error),
      },
    );
  });

  return (
    <form
      onSubmit={(event) => (changePassword.isPending ? event.preventDefault() : submit(event))}
      noValidate
      aria-label="Change Password"
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <PasswordInput
            label="New Password"
            autoComplete="new-password"
            {...form.getInputProps("password")}
          />
          <PasswordInput
            label="Confirm Password"
            autoComplete="new-password"
            {...form.getInputProps("confirmPassword")}
          />
        </SimpleGrid>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <PasswordFeedback password={values.password} confirmation={values.confirmPassword} />
          <Button type="submit" loading={changePassword.isPending} style={{ flex: "none" }}>
            Change Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LogoutAllSessions() {
  const logoutAll = useLogoutAllSessions();

  const confirmAndLogout = async () => {
    const confirmed = await openConfirmModal({
      title: "Logout from All Sessions",
      message: LOGOUT_ALL_SESSIONS_CONFIRM,
    });
    if (!confirmed) return;
    logoutAll.mutate(undefined, {
      onError: (error) => void showErrorDialog(ERROR_DIALOGS.logoutAllSessions, error),
    });
  };

  return (
    <Group justify="space-between" align="center" h="100%">
      <Text size="sm" style={{ flex: "1 1 14rem" }}>
        Signed in on another device you no longer use? End every session at once.
      </Text>
      <Button
        variant="light"
        color="red"
        leftSection={<IconLogout size={16} aria-hidden />}
        loading={logoutAll.isPending}
        onClick={() => void confirmAndLogout()}
        style={{ flex: "none" }}
      >
        Logout from All Sessions
      </Button>
    </Group>
  );
}

/**
 * Profile settings: names, password, and ending every session; between them the account security
 * (two-factor authentication, passkeys, signed-in devices).
 */
export function ProfilePage() {
  return (
    <>
      <PageHeader
        title="Profile Settings"
        description="Your name, password, sign-in security and sessions."
      />
      <Stack gap="lg" maw={1080}>
        <Section
          title="Your Profile"
          description="The name your teammates see in members lists and on API keys you create."
          icon={<IconUser size={18} aria-hidden />}
        >
          <ProfileForm />
        </Section>
        <Section
          title="Change Password"
          description={`Use at least ${PASSWORD_MIN_LENGTH} characters with an uppercase letter, a lowercase letter, a number and a special character.`}
          icon={<IconLock size={18} aria-hidden />}
        >
          <ChangePasswordForm />
        </Section>
        <Section
          id="two-factor"
          title={TWO_FACTOR_SECTION_TITLE}
          description="A code from an authenticator app on your phone, asked for at each sign-in after your password."
          icon={<IconShieldLock size={18} aria-hidden />}
        >
          <TwoFactorRequiredNotice />
          <TwoFactorSection />
        </Section>
        <Section
          title={PASSKEYS_SECTION_TITLE}
          description="Sign in with your fingerprint, face or device PIN instead of a password and code."
          icon={<IconFingerprint size={18} aria-hidden />}
        >
          <PasskeysSection />
        </Section>
        <Section
          title={SIGNED_IN_DEVICES_SECTION_TITLE}
          description="Where your account is signed in now. Sign out a device you do not recognise or no longer use."
          icon={<IconDevices size={18} aria-hidden />}
        >
          <SignedInDevices />
        </Section>
        <Section
          title="Logout from All Sessions"
          description="Signs you out everywhere, this browser included."
          icon={<IconLogout size={18} aria-hidden />}
        >
          <LogoutAllSessions />
        </Section>
      </Stack>
    </>
  );
}
