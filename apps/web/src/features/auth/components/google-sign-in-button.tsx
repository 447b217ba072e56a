import { Box, Button } from "@mantine/core";
import { IconBrandGoogleFilled } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { loadGoogleIdentity } from "../lib/google-identity";

/**
 * "Google Sign In": our button, with Google's own (the only source of an ID token) laid invisibly on
 * top so the click reaches it. Until Google's script is ready, or if it never loads, our button
 * answers the click itself with `onUnavailable`.
 */
export function GoogleSignInButton({
  clientId,
  loading,
  disabled,
  onCredential,
  onUnavailable,
}: {
  clientId: string;
  loading: boolean;
  disabled: boolean;
  onCredential: (credential: string) => void;
  onUnavailable: () => void;
}) {
  const overlay = useRef<HTMLDivElement>(null);
  const onCredentialRef = useRef(onCredential);
  onCredentialRef.current = onCredential;
  const onUnavailableRef = useRef(onUnavailable);
  onUnavailableRef.current = onUnavailable;
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadGoogleIdentity()
      .then((google) => {
        const element = overlay.current;
        if (cancelled || !element) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: (response) =>
            response.credential ? onCredentialRef.current(response.credential) : onUnavailableRef.current(),
        });
        google.accounts.id.renderButton(element, {
          type: "standard",
          theme: "outline",
          size: "large",
          text: "signin_with",
          width: Math.max(200, Math.min(400, element.offsetWidth)),
        });
        setReady(true);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [clientId]);

  const active = ready && !disabled && !loading;
  return (
    <Box pos="relative">
      <Button
        fullWidth
        variant="default"
        leftSection={<IconBrandGoogleFilled size={16} aria-hidden />}
        loading={loading}
        disabled={disabled}
        onClick={() => {
          if (!ready) onUnavailable();
        }}
      >
        Google Sign In
      </Button>
      <div
        ref={overlay}
        style={{
          position: "absolute",
          inset: 0,
          opacity: 0.01,
          overflow: "hidden",
          pointerEvents: active ? "auto" : "none",
        }}
      />
    </Box>
  );
}
