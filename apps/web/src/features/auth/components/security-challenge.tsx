import { lazy, type ReactNode, Suspense, useCallback, useState } from "react";
import { type BotCheckFields, type RecaptchaConfig, runWithBotCheck } from "../lib/recaptcha";

// Its own chunk: Mantine's Modal, scroll area and focus trap reach the sign-in page only when a bot
// check escalates (issue 16).
const SecurityChallengeModal = lazy(async () => ({
  default: (await import("./security-challenge-modal")).SecurityChallengeModal,
}));

export interface BotCheck {
  /** Runs an account request behind the bot check, escalating to the visible challenge on a 491. */
  run: <T>(action: string, request: (fields: BotCheckFields) => Promise<T>) => Promise<T>;
  /** The "Security Challenge" popup; render it once in the screen that uses `run`. */
  challenge: ReactNode;
}

export function useBotCheck(config: RecaptchaConfig | null): BotCheck {
  const [resolveChallenge, setResolveChallenge] = useState<((token: string | null) => void) | null>(null);
  // Mounted from the first challenge on (and kept, so it can animate closed); most sign-ins never need it.
  const [challengeShown, setChallengeShown] = useState(false);

  const openChallenge = useCallback(
    () =>
      new Promise<string | null>((resolve) => {
        setChallengeShown(true);
        setResolveChallenge(() => resolve);
      }),
    [],
  );

  const run = useCallback(
    <T,>(action: string, request: (fields: BotCheckFields) => Promise<T>) =>
      runWithBotCheck({ config, action, request, challenge: openChallenge }),
    [config, openChallenge],
  );

  const settle = (token: string | null) => {
    resolveChallenge?.(token);
    setResolveChallenge(null);
  };

  return {
    run,
    challenge: challengeShown ? (
      <Suspense fallback={null}>
        <SecurityChallengeModal
          config={config}
          opened={resolveChallenge !== null}
          onSolved={(token) => settle(token)}
          onClose={() => settle(null)}
        />
      </Suspense>
    ) : null,
  };
}
