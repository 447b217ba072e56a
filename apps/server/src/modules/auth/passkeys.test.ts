import {
  PASSKEY_CEREMONY_FAILED,
  PASSKEY_NAME_REQUIRED,
  PASSKEY_NOT_FOUND,
  PASSKEY_NOT_RECOGNISED,
} from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, sessionCookieOf, signUpAndConfirm } from "../../../test/accounts";
import { SoftwareAuthenticator } from "../../../test/software-authenticator";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { passkeys, webauthnChallenges } from "../../db/schema";

/**
 * Passkeys over HTTP: the options, the refusals, who may touch what, and the ceremonies with a software
 * authenticator's real signatures (the e2e journey runs them with Chromium's virtual authenticator).
 */
describe("passkeys", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ PUBLIC_URL: "https://console.example.com" });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("offers registration options bound to PUBLIC_URL's host and to the user, and stores the challenge", async () => {
    const user = await signUpAndConfirm(testApp);
    const response = await post(
      testApp,
      "/v1/users/passkeys/registration-options",
      {},
      { session: user.session },
    );
    expect(response.statusCode).toBe(200);
    const { options } = response.json();
    expect(options.rp).toEqual({ id: "console.example.com", name: "Prism" });
    expect(options.user.name).toBe(user.email);
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    const [stored] = await testApp.database.db
      .select()
      .from(webauthnChallenges)
      .where(eq(webauthnChallenges.challenge, options.challenge));
    expect(stored).toMatchObject({ purpose: "register", userId: user.userInfo.id });
  });

  it("refuses a registration response that does not verify, and stores no passkey", async () => {
    const user = await signUpAndConfirm(testApp);
    const { options } = (
      await post(testApp, "/v1/users/passkeys/registration-options", {}, { session: user.session })
    ).json();
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: "webauthn.create",
        challenge: options.challenge,
        origin: "https://evil.example",
      }),
    ).toString("base64url");
    const response = await post(
      testApp,
      "/v1/users/passkeys/register",
      {
        name: "Forged",
        response: {
          id: "AAAA",
          rawId: "AAAA",
          type: "public-key",
          response: { clientDataJSON, attestationObject: "AAAA" },
        },
      },
      { session: user.session },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: "passkey-verification-failed",
      message: PASSKEY_CEREMONY_FAILED,
    });
    expect(
      await testApp.database.db.select().from(passkeys).where(eq(passkeys.userId, user.userInfo.id)),
    ).toEqual([]);
    const nameless = await post(
      testApp,
      "/v1/users/passkeys/register",
      { name: " ", response: {} },
      { session: user.session },
    );
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json().message).toContain(PASSKEY_NAME_REQUIRED);
  });

  it("offers sign-in options to anyone and refuses a passkey nobody holds", async () => {
    const options = await post(testApp, "/v1/users/passkeys/authentication-options", {});
    expect(options.statusCode).toBe(200);
    expect(options.json().options).toMatchObject({
      rpId: "console.example.com",
      userVerification: "required",
    });
    expect(options.json().options.allowCredentials ?? []).toEqual([]);
    const response = await post(testApp, "/v1/users/passkeys/sign-in", {
      response: { id: "bm90LWEta2V5", rawId: "bm90LWEta2V5", type: "public-key", response: {} },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      error: "passkey-not-recognised",
      message: PASSKEY_NOT_RECOGNISED,
    });
    expect(response.cookies).toEqual([]);
  });

  it("lists and removes only the user's own passkeys", async () => {
    const owner = await signUpAndConfirm(testApp);
    const stranger = await signUpAndConfirm(testApp);
    const [row] = await testApp.database.db
      .insert(passkeys)
      .values({
        userId: owner.userInfo.id,
        name: "Laptop",
        credentialId: `cred-${owner.userInfo.id}`,
        publicKey: "AA",
      })
      .returning();
    const listed = await post(testApp, "/v1/users/passkeys/list", {}, { session: owner.session });
    expect(listed.json().passkeys).toEqual([
      { id: row?.id, name: "Laptop", createdAt: row?.createdAt.toISOString(), lastUsedAt: null },
    ]);
    expect(
      (await post(testApp, "/v1/users/passkeys/list", {}, { session: stranger.session })).json().passkeys,
    ).toEqual([]);
    const refused = await post(
      testApp,
      "/v1/users/passkeys/remove",
      { passkeyId: row?.id },
      { session: stranger.session },
    );
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe(PASSKEY_NOT_FOUND);
    const removed = await post(
      testApp,
      "/v1/users/passkeys/remove",
      { passkeyId: row?.id },
      { session: owner.session },
    );
    expect(removed.statusCode).toBe(200);
    expect(
      await testApp.database.db.select().from(passkeys).where(eq(passkeys.userId, owner.userInfo.id)),
    ).toEqual([]);
  });

  // A passkey counts as both factors: the device must have checked its user (PIN or biometrics).
  describe("user verification", () => {
    const origin = "https://console.example.com";

    const registrationOptions = async (session: string) =>
      (await post(testApp, "/v1/users/passkeys/registration-options", {}, { session })).json().options;
    const signInOptions = async () =>
      (await post(testApp, "/v1/users/passkeys/authentication-options", {})).json().options;
    const passkeysOf = (userId: string) =>
      testApp.database.db.select().from(passkeys).where(eq(passkeys.userId, userId));

    it("registers a passkey only when the authenticator verified the user", async () => {
      const user = await signUpAndConfirm(testApp);
      const authenticator = new SoftwareAuthenticator("console.example.com", origin);

      const unverified = await post(
        testApp,
        "/v1/users/passkeys/register",
        {
          name: "Presence only",
          response: authenticator.register(await registrationOptions(user.session), { userVerified: false }),
        },
        { session: user.session },
      );
      expect(unverified.statusCode).toBe(400);
      expect(unverified.json()).toMatchObject({
        error: "passkey-verification-failed",
        message: PASSKEY_CEREMONY_FAILED,
      });
      expect(await passkeysOf(user.userInfo.id)).toEqual([]);

      const verified = await post(
        testApp,
        "/v1/users/passkeys/register",
        {
          name: "Laptop",
          response: authenticator.register(await registrationOptions(user.session), { userVerified: true }),
        },
        { session: user.session },
      );
      expect(verified.statusCode, verified.body).toBe(200);
      expect((await passkeysOf(user.userInfo.id)).map((row) => row.name)).toEqual(["Laptop"]);
    });

    it("signs in with a passkey only when the authenticator verified the user", async () => {
      const user = await signUpAndConfirm(testApp);
      const authenticator = new SoftwareAuthenticator("console.example.com", origin);
      const registered = await post(
        testApp,
        "/v1/users/passkeys/register",
        {
          name: "Phone",
          response: authenticator.register(await registrationOptions(user.session), { userVerified: true }),
        },
        { session: user.session },
      );
      expect(registered.statusCode, registered.body).toBe(200);

      const unverified = await post(testApp, "/v1/users/passkeys/sign-in", {
        response: authenticator.authenticate(await signInOptions(), { userVerified: false }),
        rememberMe: false,
      });
      expect(unverified.statusCode).toBe(400);
      expect(unverified.json()).toMatchObject({
        error: "passkey-verification-failed",
        message: PASSKEY_CEREMONY_FAILED,
      });
      expect(sessionCookieOf(unverified)).toBeUndefined();
      const [untouched] = await passkeysOf(user.userInfo.id);
      expect(untouched?.lastUsedAt).toBeNull();

      const verified = await post(testApp, "/v1/users/passkeys/sign-in", {
        response: authenticator.authenticate(await signInOptions(), { userVerified: true }),
        rememberMe: false,
      });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json().id).toBe(user.userInfo.id);
      expect(sessionCookieOf(verified)?.value).toBeTruthy();
    });
  });
});
