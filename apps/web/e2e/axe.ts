import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** The impacts a page may not have: what keeps someone from using it, not a matter of polish. */
const BLOCKING = new Set(["serious", "critical"]);

/**
 * Runs axe-core over the page as it is now and fails (softly, so one run reports every page) on each
 * serious or critical violation, naming the rule, its help, how many elements it found and, for the
 * first three, where they are and why (a contrast's colours and ratio).
 */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ""))
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.length} element(s): ${violation.nodes
          .slice(0, 3)
          .map((node) => `${node.target.join(" ")} [${node.any[0]?.message ?? node.failureSummary ?? ""}]`)
          .join("; ")}`,
    );
  expect.soft(blocking, `${where}: axe-core's serious or critical violations`).toEqual([]);
}
