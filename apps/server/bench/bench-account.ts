import type { AppDependencies } from "../src/app-dependencies";
import { credit } from "../src/modules/ledger/ledger.service";

/** A signed-up owner with a funded organization, made through the public calls as a browser would. */
export interface BenchAccount {
  organizationId: string;
  projectId: string;
  /** The owner's session cookie (`prism_session=…`). */
  cookie: string;
  /** Makes an API key of the organization's project (with `limits`, when given). */
  createKey(name: string, limits?: Record<string, unknown>): Promise<string>;
}

export async function createBenchAccount(
  base: string,
  deps: Pick<AppDependencies, "outbox" | "database">,
  options: { label: string; fundsMicros: bigint },
): Promise<BenchAccount> {
  const origin = { origin: base, "content-type": "application/json" };
  const email = `bench-${options.label}-${Date.now()}@example.com`;
  const created = await fetch(`${base}/v1/users/create`, {
    method: "POST",
    headers: origin,
    body: JSON.stringify({ firstName: "Bench", lastName: "Mark", email, password: "Bench-mark1!" }),
  });
  // The code confirms only with the sign-up cookie of the same "browser".
  const signUpCookie = created.headers.get("set-cookie")?.split(";")[0] ?? "";
  const mail = (await deps.outbox.list()).find((candidate) => candidate.to === email);
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  const confirmed = await fetch(`${base}/v1/users/confirm`, {
    method: "POST",
    headers: { ...origin, cookie: signUpCookie },
    body: JSON.stringify({ email, verificationCode: code }),
  });
  const cookie =
    confirmed.headers
      .getSetCookie()
      .find((value) => value.startsWith("prism_session="))
      ?.split(";")[0] ?? "";
  const me = (await confirmed.json()) as { organizations: { id: string; projects: { id: string }[] }[] };
  const organizationId = me.organizations[0]?.id ?? "";
  const projectId = me.organizations[0]?.projects[0]?.id ?? "";
  await deps.database.db.transaction((tx) =>
    credit(tx, {
      organizationId,
      amountMicros: options.fundsMicros,
      reference: `bench-funds:${organizationId}`,
    }),
  );
  return {
    organizationId,
    projectId,
    cookie,
    createKey: async (name, limits) => {
      const response = await fetch(`${base}/v1/users/api-keys/insert`, {
        method: "POST",
        headers: { ...origin, cookie },
        body: JSON.stringify({ projectId, apiKeyName: name, ...(limits ? { limits } : {}) }),
      });
      return ((await response.json()) as { apiKey: { content: string } }).apiKey.content;
    },
  };
}
