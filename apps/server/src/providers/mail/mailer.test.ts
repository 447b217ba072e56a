import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, STRONG_PASSWORD, uniqueEmail } from "../../../test/accounts";
import { createTestApp, PRODUCTION_ENV, type TestApp } from "../../../test/test-app";

interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

describe("mail", () => {
  describe("over SMTP", () => {
    const received: ReceivedMail[] = [];
    let smtp: SMTPServer;
    let port: number;
    let testApp: TestApp;

    beforeAll(async () => {
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              data: Buffer.concat(chunks).toString("utf8"),
            });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
      port = (smtp.server.address() as { port: number }).port;
      testApp = await createTestApp({
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: "Prism <hello@prism.test>",
      });
    });

    afterAll(async () => {
      await testApp?.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    });

    it("delivers the verification code through the SMTP server", async () => {
      const email = uniqueEmail("smtp");
      const created = await post(testApp, "/v1/users/create", {
        firstName: "Mail",
        lastName: "Test",
        email,
        password: STRONG_PASSWORD,
      });
      expect(created.statusCode).toBe(200);
      const mail = received.find((candidate) => candidate.to.includes(email));
      expect(mail?.from).toBe("hello@prism.test");
      expect(mail?.data).toMatch(/Subject: Your Prism verification code: \d{6}/);
      expect(mail?.data).toContain("text/html");
      // With SMTP configured nothing lands in the outbox.
      expect(await testApp.deps.outbox.list()).toEqual([]);
    });

    it("sends a mail's fixed Message-ID when it has one", async () => {
      const email = uniqueEmail("message-id");
      await testApp.deps.mailer.send({
        to: email,
        subject: "Low balance",
        text: "Low",
        html: "<p>Low</p>",
        messageId: "<alert.evt_1.user-1@prism-console>",
      });
      const mail = received.find((candidate) => candidate.to.includes(email));
      expect(mail?.data).toContain("Message-ID: <alert.evt_1.user-1@prism-console>");
    });
  });

  describe("the development mailbox", () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await createTestApp();
    });

    afterAll(async () => {
      await testApp?.close();
    });

    it("lists the outbox newest first as JSON and as a page", async () => {
      const first = uniqueEmail("first");
      const second = uniqueEmail("second");
      for (const email of [first, second]) {
        await post(testApp, "/v1/users/create", {
          firstName: "A",
          lastName: "B",
          email,
          password: STRONG_PASSWORD,
        });
      }
      const response = await testApp.app.inject({ method: "GET", url: "/dev/mailbox" });
      expect(response.statusCode).toBe(200);
      const mails = response.json() as {
        to: string;
        subject: string;
        text: string;
        html: string;
        createdAt: string;
      }[];
      expect(mails.map((mail) => mail.to)).toEqual([second, first]);
      expect(Object.keys(mails[0] ?? {}).sort()).toEqual(["createdAt", "html", "subject", "text", "to"]);
      const page = await testApp.app.inject({ method: "GET", url: "/dev/mailbox.html" });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("Dev mailbox");
    });

    it("does not exist in production", async () => {
      const production = await createTestApp(PRODUCTION_ENV);
      try {
        const response = await production.app.inject({ method: "GET", url: "/dev/mailbox" });
        expect(response.statusCode).toBe(404);
      } finally {
        await production.close();
      }
    });
  });
});
