import { Alert, Center, Loader, Modal, Stack, Text } from "@mantine/core";
import { GENERIC_ERROR, SECURITY_CHALLENGE_MESSAGE, SECURITY_CHALLENGE_TITLE } from "@prism/contract";
import { useCallback, useRef, useState } from "react";
import { loadRecaptcha, type RecaptchaConfig } from "../lib/recaptcha";

/** The visible reCAPTCHA (v2) challenge, shown when the invisible check refused an account request. */
export function SecurityChallengeModal({
  config,
  opened,
  onSolved,
  onClose,
}: {
  config: RecaptchaConfig | null;
  opened: boolean;
  onSolved: (token: string) => void;
  onClose: () => void;
}) {
  const [status, setStatus] = useState<"loading" | "ready" | "failed">("loading");
  const onSolvedRef = useRef(onSolved);
  onSolvedRef.current = onSolved;

  // The modal's body mounts afresh on every opening, and a widget renders once per element.
  const mountWidget = useCallback(
    (element: HTMLDivElement | null) => {
      if (!element || !config) return;
      setStatus("loading");
      loadRecaptcha(config)
        .then((grecaptcha) => {
          element.replaceChildren();
          const target = document.createElement("div");
          element.append(target);
          grecaptcha.render(target, {
            sitekey: config.v2SiteKey,
            callback: (token) => onSolvedRef.current(token),
          });
          setStatus("ready");
        })
        .catch(() => setStatus("failed"));
    },
    [config],
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={SECURITY_CHALLENGE_TITLE}
      centered
      size="auto"
      closeOnClickOutside
    >
      <Stack gap="md" miw={320}>
        <Text size="sm">{SECURITY_CHALLENGE_MESSAGE}</Text>
        {status === "failed" ? (
          <Alert color="red" variant="light">
            {GENERIC_ERROR}
          </Alert>
        ) : null}
        {status === "loading" ? (
          <Center mih={78}>
            <Loader size="sm" />
          </Center>
        ) : null}
        <Center>
          <div ref={mountWidget} data-testid="security-challenge-widget" />
        </Center>
      </Stack>
    </Modal>
  );
}
