/**
 * Console routes the contract's texts and the server's mails point to. Their own module, apart from
 * messages.ts: the sign-in page needs the paths, and importing them from the messages put every
 * page's texts on it (over its 150 KB budget).
 */

/** The console's first page after sign-in (the spec's /home), where the API reference leads back. */
export const CONSOLE_HOME_PATH = "/home";
/** The console's Invoices page (the spec's route), where mails and expired links send people. */
export const INVOICES_PAGE_PATH = "/organization/invoices";
