import { readFileSync } from "node:fs";
import {
  EXPORT_CSV_LABEL,
  EXPORT_SUMMARY_LABEL,
  PLAYGROUND_CALLER,
  USAGE_EXPORT_COLUMNS,
  USAGE_SUMMARY_COLUMNS,
} from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser } from "./browser";
import { signUpFundedOwner } from "./funded-owner";

/**
 * A funded owner makes a call in the console's name, opens Home and downloads this month's CSV exports:
 * the call is a row of the calls export with its project, feature, "Playground", status, cost and id,
 * and a row of the per-day-per-feature summary.
 */
describe("usage exports", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowser();
  });

  afterAll(async () => {
    await session?.close();
  });

  it("downloads this month's calls and summary as CSV from Home", async () => {
    const { page, baseUrl } = session;
    const { projectId } = await signUpFundedOwner(page, baseUrl, {
      firstName: "Una",
      lastName: "Usage",
      label: "usage-export",
    });
    const called = await page.request.post(`${baseUrl}/v1/images/generation`, {
      headers: { origin: baseUrl, "x-authorization-project": projectId },
      multipart: { prompt: "A lighthouse at dusk", width: "512", height: "512" },
    });
    expect(called.ok(), await called.text()).toBe(true);
    const answer = (await called.json()) as { cost: number; request: { id: string } };

    await page.goto("/terms");
    await page.evaluate(() => localStorage.setItem("welcomePopupSeen", "true"));
    await page.goto("/home");
    const exportLink = page.getByRole("link", { name: EXPORT_CSV_LABEL });
    await exportLink.waitFor();
    await session.screenshot("usage-export-01-home");

    const [callsFile] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
    const calls = readFileSync(await callsFile.path(), "utf8")
      .trim()
      .split("\n");
    expect(calls[0]).toBe(USAGE_EXPORT_COLUMNS.join(","));
    expect(calls).toHaveLength(2);
    const cells = calls[1]?.split(",") ?? [];
    expect(cells.slice(1, 6)).toEqual([
      "Default Project",
      "/v1/images/generation",
      "Image Generation",
      PLAYGROUND_CALLER,
      "done",
    ]);
    expect(Number(cells[7])).toBe(answer.cost);
    expect(cells[8]).toBe(answer.request.id);
    expect(new Date(cells[0] ?? "").getUTCMonth()).toBe(new Date().getUTCMonth());

    const [summaryFile] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: EXPORT_SUMMARY_LABEL }).click(),
    ]);
    const summary = readFileSync(await summaryFile.path(), "utf8")
      .trim()
      .split("\n");
    expect(summary[0]).toBe(USAGE_SUMMARY_COLUMNS.join(","));
    expect(summary.slice(1).map((line) => line.split(",").slice(1, 4))).toEqual([
      ["/v1/images/generation", "Image Generation", "1"],
    ]);
  });
});
