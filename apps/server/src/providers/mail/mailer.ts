import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Transporter } from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * A fixed `Message-ID` (`<left@right>`) for a mail a retried job may send twice (the process died
   * after the SMTP server accepted it, before the job was marked done): SMTP has no idempotency key,
   * but mail services and clients show messages with one Message-ID once.
   */
  messageId?: string;
}

export interface StoredMail extends MailMessage {
  createdAt: string;
}

export interface Mailer {
  readonly kind: "outbox" | "smtp";
  send(message: MailMessage): Promise<void>;
}

/**
 * The embedded default: every mail is written to DATA_DIR/outbox as JSON and logged, so a developer
 * (or an end-to-end test) can read it at /dev/mailbox. Files, not memory, so every process sees them.
 */
export class OutboxMailer implements Mailer {
  readonly kind = "outbox";

  constructor(
    private readonly directory: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger | undefined,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const createdAt = new Date().toISOString();
    const stored: StoredMail & { from: string } = { ...message, from: this.from, createdAt };
    // The timestamp prefix makes lexical order chronological; the uuid keeps names unique.
    const name = `${createdAt.replace(/[:.]/g, "-")}-${randomUUID()}.json`;
    await writeFile(join(this.directory, name), JSON.stringify(stored, null, 2));
    this.log?.info({ to: message.to, subject: message.subject }, "mail stored in the outbox");
  }

  /** Newest first. */
  async list(limit = 200): Promise<StoredMail[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return [];
    }
    const newest = names
      .filter((name) => name.endsWith(".json"))
      .sort()
      .reverse()
      .slice(0, limit);
    const mails = await Promise.all(
      newest.map(
        async (name) => JSON.parse(await readFile(join(this.directory, name), "utf8")) as StoredMail,
      ),
    );
    return mails.map(({ to, subject, text, html, createdAt, messageId }) => ({
      to,
      subject,
      text,
      html,
      createdAt,
      ...(messageId === undefined ? {} : { messageId }),
    }));
  }
}

/** Production mail through any SMTP server (nodemailer), configured by one `smtp://` / `smtps://` URL. */
export class SmtpMailer implements Mailer {
  readonly kind = "smtp";
  private transport: Promise<Transporter> | undefined;
  private opened: Transporter | undefined;

  constructor(
    private readonly smtpUrl: string,
    private readonly from: string,
  ) {}

  /** nodemailer is loaded with the first message, not at start-up (issue 16). */
  private connect(): Promise<Transporter> {
    this.transport ??= import("nodemailer").then(({ default: nodemailer }) => {
      this.opened = nodemailer.createTransport(this.smtpUrl);
      return this.opened;
    });
    return this.transport;
  }

  async send(message: MailMessage): Promise<void> {
    await (await this.connect()).sendMail({ from: this.from, ...message });
  }

  close(): void {
    this.opened?.close();
  }
}
