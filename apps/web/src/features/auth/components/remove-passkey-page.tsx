import { Alert, Anchor, Button, Stack, Text, Title } from "@mantine/core";
import { GENERIC_ERROR, REMOVE_PASSKEY_PAGE } from "@prism/contract";
import { useMutation } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { api, isApiError } from "../../../lib/api-client";
import { PATHS } from "../../../lib/paths";
import { AuthLayout } from "./auth-layout";

/**
 * The passkey-added mail's "it wasn't me" link (decision 020): one button removes that passkey and signs
 * the account out everywhere. Works signed out, since the owner may have just signed out of everything.
 * A button, not the link itself: mail scanners open links, and opening must change nothing.
 */
export function RemovePasskeyPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const remove = useMutation({ mutationFn: () => api.passkeys.removeWithLink({ token }) });
  // A link whose passkey is gone (or that was never one) stays dead: no button to press again.
  const isDeadLink = isApiError(remove.error) && (remove.error.status === 404 || remove.error.status === 400);
  const failure = remove.error
    ? isDeadLink
      ? REMOVE_PASSKEY_PAGE.invalid
      : isApiError(remove.error) && remove.error.code === "rate-limited"
        ? remove.error.message
        : GENERIC_ERROR
    : null;

  return (
    <AuthLayout>
      <Stack gap="md">
        <Title order={2} size="h3">
          {REMOVE_PASSKEY_PAGE.title}
        </Title>
        {remove.isSuccess ? (
          <Alert color="teal" variant="light" role="status">
            {REMOVE_PASSKEY_PAGE.done}
          </Alert>
        ) : (
          <>
            <Text size="sm">{REMOVE_PASSKEY_PAGE.description}</Text>
            {failure ? (
              <Alert color="red" variant="light" role="alert">
                {failure}
              </Alert>
            ) : null}
            {isDeadLink ? null : (
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                {REMOVE_PASSKEY_PAGE.button}
              </Button>
            )}
          </>
        )}
        <Anchor component={Link} to={PATHS.login} size="sm" ta="center">
          {REMOVE_PASSKEY_PAGE.signIn}
        </Anchor>
      </Stack>
    </AuthLayout>
  );
}
