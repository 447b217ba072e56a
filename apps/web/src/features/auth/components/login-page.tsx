import { Alert, Button, Stack } from "@mantine/core";
import { invitedToJoinText, SIGN_IN_WITH_PASSKEY, type UserInfo } from "@prism/contract";
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } from "@simplewebauthn/browser";
import { IconBrandGithub, IconFingerprint, IconUsersPlus } from "@tabler/icons-react";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { PageLoader } from "../../../components/full-page-loader";
import { api, isApiError } from "../../../lib/api-client";
import { COOKIE, readCookie, writeCookie } from "../../../lib/cookies";
import { documentTitle, usePublicConfig } from "../../../lib/env";
import { isPasskeyPromptClosed } from "../../../lib/passkeys";
import { isSignInAgain, postLoginPath } from "../../../lib/post-login";
import { useSession } from "../../../lib/session";
import { useInvitationPreview } from "../api/check-invitation";
import { type AuthAction, authErrorMessage } from "../lib/auth-errors";
import { githubAuthorizeUrl, takePendingGithubSignIn } from "../lib/github";
import { cancelPasskeyAutofill, signInWithPasskey } from "../lib/passkey-sign-in";
import { loadRecaptcha } from "../lib/recaptcha";
import { AuthLayout } from "./auth-layout";
import { GoogleSignInButton } from "./google-sign-in-button";
import { useBotCheck } from "./security-challenge";
import { SignInForm } from "./sign-in-form";

// The sign-in form comes with the page; every other step is its own chunk, fetched when the user goes
// there, so /login opens with the least code (issue 16).
const SignUpForm = lazy(async () => ({ default: (await import("./sign-up-form")).SignUpForm }));
const VerificationCodeForm = lazy(async () => ({
  default: (await import("./verification-code-form")).VerificationCodeForm,
}));
const ForgotPasswordForm = lazy(async () => ({
  default: (await import("./forgot-password-form")).ForgotPasswordForm,
}));
const ChangePasswordForm = lazy(async () => ({
  default: (await import("./change-password-form")).ChangePasswordForm,
}));
const TwoFactorForm = lazy(async () => ({ default: (await import("./two-factor-form")).TwoFactorForm }));

/** The five modes of the login screen, and the second step of two-factor sign-in. */
export type LoginMode =
  | "sign-in"
  | "sign-up"
  | "verification-code"
  | "forgot-password"
  | "change-password-confirm"
  | "two-factor";

/** The request that mailed the code the verification step waits for; "Resend code" repeats it. */
type CodeRequest =
  | { kind: "sign-up"; values: { firstName: string; lastName: string; email: string; password: string } }
  | { kind: "sign-in"; values: { email: string; password: string } };

const PAGE_TITLES: Record<LoginMode, string> = {
  "sign-in": "Sign In",
  "sign-up": "Sign Up",
  "verification-code": "Verify Your Email",
  "forgot-password": "Recover Password",
  "change-password-confirm": "Change Password",
  "two-factor": "Two-Factor Authentication",
};

/**
 * Sign-in, sign-up, e-mail verification and password recovery on one screen. A successful sign-in
 * only stores the user: the /login guard then leads to the members page (pending invitation), the page
 * asked for, or home. An invitation link's page names the inviting organization and fills in the
 * invited address.
 */
export function LoginPage() {
  const config = usePublicConfig();
  const { setUserInfo } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const botCheck = useBotCheck(config?.recaptcha ?? null);
  // The login guard has stored the link's invitation in its cookie before this page renders.
  const [invitationId] = useState(() => readCookie(COOKIE.invitationId));
  const invitation = useInvitationPreview(invitationId).data;
  const invitingOrganization = invitation?.valid ? invitation.organizationName : null;
  const invitedEmail = invitation?.valid ? invitation.email : null;
  const codeRequest = useRef<CodeRequest | null>(null);

  const [mode, setMode] = useState<LoginMode>("sign-in");
  const [email, setEmail] = useState("");
  const [rememberMe, setRememberMe] = useState(() => readCookie(COOKIE.rememberMe) === "true");
  // Verification is reached from sign-up, or from sign-in for an account that was never verified.
  const [verificationReturn, setVerificationReturn] = useState<LoginMode>("sign-up");
  const [pending, setPending] = useState<AuthAction | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (invitedEmail) setEmail((current) => current || invitedEmail);
  }, [invitedEmail]);

  const switchMode = useCallback((next: LoginMode) => {
    setError(null);
    // The repeated request holds a password: keep it only while its verification step is open.
    if (next !== "verification-code") codeRequest.current = null;
    setMode(next);
  }, []);

  /** Runs one request of the screen: its button spins, and a failure becomes the form's message. */
  const perform = useCallback(async (action: AuthAction, work: () => Promise<void>) => {
    setPending(action);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(authErrorMessage(action, failure));
    } finally {
      setPending(null);
    }
  }, []);

  const signInAgain = isSignInAgain(location.state);
  const signedIn = useCallback(
    (userInfo: UserInfo) => {
      setUserInfo(userInfo);
      // Someone already signed in was sent here on purpose (the guard lets them stay): move on.
      if (signInAgain) navigate(postLoginPath(), { replace: true });
    },
    [setUserInfo, signInAgain, navigate],
  );

  /**
   * A first factor that was accepted for an account with two-factor sign-in: the server holds the
   * sign-in open for this browser and the code step asks for the second factor. True when it did.
   */
  const askedForSecondFactor = useCallback(
    (failure: unknown): boolean => {
      if (!isApiError(failure) || failure.code !== "two-factor-required") return false;
      switchMode("two-factor");
      return true;
    },
    [switchMode],
  );

  const signIn = (values: { email: string; password: string }) =>
    perform("login", async () => {
      try {
        signedIn(
          await botCheck.run("login", (fields) =>
            api.users.login({ email: values.email, password: values.password, rememberMe, ...fields }),
          ),
        );
      } catch (failure) {
        if (askedForSecondFactor(failure)) return;
        // The server has just mailed a fresh code to the unverified account: verify it here.
        if (isApiError(failure) && failure.code === "user-not-active") {
          codeRequest.current = { kind: "sign-in", values };
          setVerificationReturn("sign-in");
          switchMode("verification-code");
          return;
        }
        throw failure;
      }
    });

  const signUp = (values: { firstName: string; lastName: string; email: string; password: string }) =>
    perform("signUp", async () => {
      await botCheck.run("signup", (fields) => api.users.create({ ...values, ...fields }));
      codeRequest.current = { kind: "sign-up", values };
      setVerificationReturn("sign-up");
      switchMode("verification-code");
    });

  const confirm = (verificationCode: string) =>
    perform("confirm", async () => {
      try {
        signedIn(
          await botCheck.run("confirm", (fields) =>
            api.users.confirm({ email: email.trim(), verificationCode, ...fields }),
          ),
        );
      } catch (failure) {
        // An account that is already active is told to return to sign-in; Go Back does.
        if (isApiError(failure) && failure.code === "user-already-active") setVerificationReturn("sign-in");
        throw failure;
      }
    });

  /**
   * Mails a fresh code by repeating the request that mailed the first one: sign-up again (the latest
   * details win for an unverified account), or sign-in, which mails a code to an unverified account.
   * Both are throttled per address by the server, whose 429 message is shown as it is.
   */
  const resendCode = async (): Promise<boolean> => {
    const request = codeRequest.current;
    if (!request) return false;
    let sent = false;
    if (request.kind === "sign-up") {
      await perform("signUp", async () => {
        await botCheck.run("signup", (fields) => api.users.create({ ...request.values, ...fields }));
        sent = true;
      });
      return sent;
    }
    await perform("login", async () => {
      try {
        signedIn(
          await botCheck.run("login", (fields) =>
            api.users.login({ ...request.values, rememberMe, ...fields }),
          ),
        );
      } catch (failure) {
        if (isApiError(failure) && failure.code === "user-not-active") {
          sent = true;
          return;
        }
        throw failure;
      }
    });
    return sent;
  };

  const requestReset = (address: string) =>
    perform("forgotPassword", async () => {
      await botCheck.run("forgot_password", (fields) =>
        api.users.forgotPassword({ email: address, ...fields }),
      );
      switchMode("change-password-confirm");
    });

  const resetPassword = async (values: { resetCode: string; password: string }) => {
    let reset = false;
    await perform("resetPassword", async () => {
      await botCheck.run("reset_password", (fields) =>
        api.users.resetPassword({ email: email.trim(), ...values, ...fields }),
      );
      reset = true;
    });
    // A successful reset returns to sign-in and signs in with the new password.
    if (reset) {
      switchMode("sign-in");
      await signIn({ email: email.trim(), password: values.password });
    }
  };

  const changeRememberMe = (value: boolean) => {
    setRememberMe(value);
    writeCookie(COOKIE.rememberMe, value ? "true" : "false");
  };

  const googleSignIn = (credential: string) =>
    perform("google", async () => {
      try {
        signedIn(await api.users.googleLogin({ credential, rememberMe }));
      } catch (failure) {
        if (!askedForSecondFactor(failure)) throw failure;
      }
    });

  const verifySecondFactor = (code: string) =>
    perform("twoFactor", async () => {
      try {
        signedIn(await api.twoFactor.verify({ code }));
      } catch (failure) {
        // The open sign-in ran out (or was used): start again from the password.
        if (isApiError(failure) && failure.code === "two-factor-sign-in-expired") switchMode("sign-in");
        throw failure;
      }
    });

  // The bot-check script loads with the page (only where one is configured), so the first request
  // does not wait for it.
  const recaptcha = config?.recaptcha ?? null;
  useEffect(() => {
    if (recaptcha) loadRecaptcha(recaptcha).catch(() => undefined);
  }, [recaptcha]);

  // A GitHub sign-in comes back through /login-github-callback, which leaves the code for this page.
  const githubChecked = useRef(false);
  useEffect(() => {
    if (githubChecked.current) return;
    githubChecked.current = true;
    const attempt = takePendingGithubSignIn();
    if (!attempt) return;
    if ("error" in attempt) {
      setError(authErrorMessage("github", attempt));
      return;
    }
    void perform("github", async () => {
      try {
        signedIn(
          await api.users.githubLogin({
            credential: attempt.code,
            rememberMe: readCookie(COOKIE.rememberMe) === "true",
          }),
        );
      } catch (failure) {
        if (!askedForSecondFactor(failure)) throw failure;
      }
    });
  }, [perform, signedIn, askedForSecondFactor]);

  const passkeySignIn = () =>
    perform("passkey", async () => {
      try {
        signedIn(await signInWithPasskey(rememberMe));
      } catch (failure) {
        // Closing the browser's passkey prompt is the user's choice: nothing to report.
        if (isPasskeyPromptClosed(failure)) return;
        throw failure;
      }
    });

  const [passkeysSupported] = useState(() => browserSupportsWebAuthn());

  // Conditional UI: while the sign-in form shows, the browser may offer passkeys in the Email field's
  // autofill; choosing one signs in like the button does. Only where the browser supports it.
  const signedInRef = useRef(signedIn);
  signedInRef.current = signedIn;
  const rememberMeRef = useRef(rememberMe);
  rememberMeRef.current = rememberMe;
  useEffect(() => {
    if (mode !== "sign-in" || !passkeysSupported) return;
    let active = true;
    void (async () => {
      if (!(await browserSupportsWebAuthnAutofill()) || !active) return;
      try {
        const userInfo = await signInWithPasskey(rememberMeRef.current, { autofill: true });
        if (active) signedInRef.current(userInfo);
      } catch (failure) {
        // Only a passkey the user picked and the server refused is worth a word. The waiting request
        // being cancelled (by the button's own request, by leaving the form) or the browser refusing
        // autofill here (another host name than the passkeys' own) happens in the background.
        if (active && isApiError(failure)) setError(authErrorMessage("passkey", failure));
      }
    })();
    return () => {
      active = false;
      cancelPasskeyAutofill();
    };
  }, [mode, passkeysSupported]);

  const busy = pending !== null;
  const hasProviders = Boolean(config?.googleClientId || config?.github);
  const providers =
    passkeysSupported || hasProviders ? (
      <Stack gap="sm">
        {passkeysSupported ? (
          <Button
            fullWidth
            variant="default"
            leftSection={<IconFingerprint size={16} aria-hidden />}
            loading={pending === "passkey"}
            disabled={busy && pending !== "passkey"}
            onClick={() => void passkeySignIn()}
          >
            {SIGN_IN_WITH_PASSKEY}
          </Button>
        ) : null}
        {config?.googleClientId ? (
          <GoogleSignInButton
            clientId={config.googleClientId}
            loading={pending === "google"}
            disabled={busy && pending !== "google"}
            onCredential={googleSignIn}
            onUnavailable={() => setError(authErrorMessage("google", null))}
          />
        ) : null}
        {config?.github ? (
          <Button
            fullWidth
            variant="default"
            leftSection={<IconBrandGithub size={16} aria-hidden />}
            loading={pending === "github"}
            disabled={busy && pending !== "github"}
            onClick={() => {
              if (config.github)
                window.location.assign(githubAuthorizeUrl(config.github, window.location.origin));
            }}
          >
            Github Sign In
          </Button>
        ) : null}
      </Stack>
    ) : null;

  return (
    <AuthLayout>
      <title>{documentTitle(PAGE_TITLES[mode])}</title>
      {invitingOrganization ? (
        <Alert
          color="prism"
          variant="light"
          icon={<IconUsersPlus size={18} aria-hidden />}
          mb="lg"
          data-testid="invitation-notice"
        >
          {invitedToJoinText(invitingOrganization)}
        </Alert>
      ) : null}
      {mode === "sign-in" ? (
        <SignInForm
          email={email}
          onEmailChange={setEmail}
          rememberMe={rememberMe}
          onRememberMeChange={changeRememberMe}
          loading={pending === "login"}
          busy={busy}
          error={error}
          providers={providers}
          onSubmit={signIn}
          onSignUp={() => switchMode("sign-up")}
          onRecoverPassword={() => switchMode("forgot-password")}
        />
      ) : null}
      <Suspense fallback={<PageLoader />}>
        {mode === "sign-up" ? (
          <SignUpForm
            email={email}
            onEmailChange={setEmail}
            loading={pending === "signUp"}
            error={error}
            onSubmit={signUp}
            onBack={() => switchMode("sign-in")}
          />
        ) : null}
        {mode === "verification-code" ? (
          <VerificationCodeForm
            email={email.trim()}
            loading={pending === "confirm"}
            error={error}
            onSubmit={confirm}
            onBack={() => switchMode(verificationReturn)}
            onResend={codeRequest.current ? resendCode : undefined}
          />
        ) : null}
        {mode === "forgot-password" ? (
          <ForgotPasswordForm
            email={email}
            onEmailChange={setEmail}
            loading={pending === "forgotPassword"}
            error={error}
            onSubmit={requestReset}
            onBack={() => switchMode("sign-in")}
          />
        ) : null}
        {mode === "change-password-confirm" ? (
          <ChangePasswordForm
            email={email.trim()}
            loading={pending === "resetPassword"}
            error={error}
            onSubmit={resetPassword}
            onBack={() => switchMode("forgot-password")}
          />
        ) : null}
        {mode === "two-factor" ? (
          <TwoFactorForm
            loading={pending === "twoFactor"}
            error={error}
            onSubmit={verifySecondFactor}
            onBack={() => switchMode("sign-in")}
          />
        ) : null}
      </Suspense>
      {botCheck.challenge}
    </AuthLayout>
  );
}
