import { Writable } from "node:stream";
import { fullPermissions, INVOICE_LINK_EXPIRED } from "@prism/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { post, signUpAndConfirm, uniqueEmail } from "../../../test/accounts";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { SESSION_COOKIE } from "../auth/session-cookie";

/** Every line the server logs, parsed. */
class LogCapture extends Writable {
  lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) this.lines.push(JSON.parse(line));
    done();
  }
}

/**
 * Invoice links and stored files: what a leaked URL or a browser cache can still reveal. An invoice
 * link opens once, for five minutes, and its token never reaches the request log; a stored file is
 * revalidated on every use, so removing someone's access also removes what their browser shows.
 */
describe("invoice links and stored files (abuse)", () => {
  let testApp: TestApp;
  const log = new LogCapture();

  beforeAll(async () => {
    testApp = await createTestApp({ LOG_LEVEL: "info" }, {}, { logStream: log });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function ownerWithInvoice() {
    const account = await signUpAndConfirm(testApp);
    const organizationId = account.userInfo.organizations[0].id as string;
    await addSandboxCard(testApp, account.session, organizationId);
    const recharged = await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 20 },
      { session: account.session },
    );
    expect(recharged.statusCode).toBe(200);
    const listed = await post(
      testApp,
      "/v1/users/invoices/get",
      { organizationId, page: 1 },
      { session: account.session },
    );
    const invoiceId = listed.json().invoices[0].invoiceId as string;
    return { ...account, organizationId, invoiceId };
  }

  async function linkFor(session: string, invoiceId: string): Promise<string> {
    const link = await post(testApp, "/v1/users/invoices/retrieve-link", { invoiceId }, { session });
    expect(link.statusCode).toBe(200);
    return link.json().url as string;
  }

  const open = (url: string) => testApp.app.inject({ method: "GET", url });

  it("opens an invoice link once; the same link again is refused", async () => {
    const { session, invoiceId } = await ownerWithInvoice();
    const url = await linkFor(session, invoiceId);

    const first = await open(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toBe("application/pdf");
    const again = await open(url);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: "not-found", message: INVOICE_LINK_EXPIRED });
    // The same link in a browser tab: a page that says so and leads to the Invoices page, not JSON.
    const inTab = await testApp.app.inject({
      method: "GET",
      url,
      headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
    });
    expect(inTab.statusCode).toBe(404);
    expect(inTab.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(inTab.body).toContain(
      '<h1 style="margin:0 0 12px;font-size:22px;line-height:1.3">This invoice link has expired</h1>',
    );
    expect(inTab.body).toContain(INVOICE_LINK_EXPIRED);
    expect(inTab.body).toContain(
      "To get a new link, open Invoices in the console and choose View beside the invoice. Each link opens the invoice once, within 5 minutes.",
    );
    expect(inTab.body).toContain('href="/organization/invoices"');
    // A new link from the console works, once.
    expect((await open(await linkFor(session, invoiceId))).statusCode).toBe(200);
  });

  it("refuses an invoice link five minutes after it was made", async () => {
    const { session, invoiceId } = await ownerWithInvoice();
    const url = await linkFor(session, invoiceId);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 5 * 60_000 + 1_000 });
    expect((await open(url)).statusCode).toBe(404);
    const inTab = await testApp.app.inject({ method: "GET", url, headers: { accept: "text/html" } });
    expect(inTab.body).toContain("This invoice link has expired");
  });

  it("keeps the link's token out of the request log", async () => {
    const { session, invoiceId } = await ownerWithInvoice();
    const url = await linkFor(session, invoiceId);
    const token = new URL(url, "http://localhost").searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThanOrEqual(32);
    log.lines = [];

    expect((await open(url)).statusCode).toBe(200);

    const path = url.split("?")[0] ?? "";
    const logged = log.lines.filter(
      (line) => typeof line.req === "object" && String((line.req as { url?: unknown }).url).startsWith(path),
    );
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(log.lines)).not.toContain(token);
  });

  it("serves stored files as private and revalidated: 304 while access holds, 404 once it is removed", async () => {
    const owner = await signUpAndConfirm(testApp);
    const organization = owner.userInfo.organizations[0];
    const projectId = organization.projects[0].id as string;
    const email = uniqueEmail("viewer");
    await post(
      testApp,
      "/v1/users/organization-members/invite",
      { organizationId: organization.id, emailList: email, permissions: fullPermissions(false, [projectId]) },
      { session: owner.session },
    );
    const invitationId = (await testApp.deps.outbox.list())
      .find((mail) => mail.to === email)
      ?.text.match(/invitation=([0-9a-f-]{36})/)?.[1];
    const member = await signUpAndConfirm(testApp, { email });
    const joined = await post(
      testApp,
      "/v1/users/organization-members/confirm-invitation",
      { invitationId, confirmed: true },
      { session: member.session },
    );
    expect(joined.statusCode).toBe(200);
    const path = await storeFile(organization.id, projectId);
    const cookies = { [SESSION_COOKIE]: member.session };
    const seen = await testApp.app.inject({ method: "GET", url: path, cookies });
    expect(seen.statusCode).toBe(200);
    expect(seen.body).toBe("png bytes");
    expect(seen.headers["cache-control"]).toBe("private, no-cache");
    const etag = String(seen.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const unchanged = await testApp.app.inject({
      method: "GET",
      url: path,
      cookies,
      headers: { "if-none-match": etag },
    });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe("");
    expect(unchanged.headers["cache-control"]).toBe("private, no-cache");

    const removed = await post(
      testApp,
      "/v1/users/organization-members/remove",
      { organizationId: organization.id, userIdToRemove: member.userInfo.id },
      { session: owner.session },
    );
    expect(removed.statusCode).toBe(200);
    const revalidated = await testApp.app.inject({
      method: "GET",
      url: path,
      cookies,
      headers: { "if-none-match": etag },
    });
    expect(revalidated.statusCode).toBe(404);
  });

  /** A stored result, as the gateway writes it, and the URL the API hands out for it. */
  async function storeFile(organizationId: string, projectId: string): Promise<string> {
    const name = `result${Date.now()}${Math.random().toString(36).slice(2)}`;
    await testApp.deps.files.put(
      `${organizationId}/${projectId}/${name}`,
      Buffer.from("png bytes"),
      "image/png",
    );
    return `/v1/files/${organizationId}/${projectId}/${name}`;
  }
});
