/** Google Identity Services, the one way to obtain the ID token users/google-login-request expects. */
export const GOOGLE_IDENTITY_SCRIPT_URL = "https://accounts.google.com/gsi/client";

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential?: string }) => void }): void;
      renderButton(
        parent: HTMLElement,
        options: { type: "standard"; theme: "outline"; size: "large"; text: "signin_with"; width: number },
      ): void;
      prompt(): void;
    };
  };
}

declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

let scriptPromise: Promise<GoogleIdentity> | null = null;

export function loadGoogleIdentity(): Promise<GoogleIdentity> {
  if (scriptPromise) return scriptPromise;
  scriptPromise = new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = GOOGLE_IDENTITY_SCRIPT_URL;
    script.async = true;
    script.defer = true;
    script.addEventListener("load", () =>
      window.google ? resolve(window.google) : reject(new Error("Google Identity Services did not start.")),
    );
    script.addEventListener("error", () => reject(new Error("Google Identity Services could not load.")));
    document.head.append(script);
  }).catch((error: unknown) => {
    scriptPromise = null;
    throw error;
  });
  return scriptPromise;
}
