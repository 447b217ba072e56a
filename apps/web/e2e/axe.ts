import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** The impacts a page may not have: what keeps someone from using it, not a matter of polish. */
const BLOCKING = new Set(["serious", "critical"]);

/**
 * Runs axe-core over the page as it is now and fails (softly, so one run reports every page) on each
 * serious or critical violation, naming the rule, its help and the elements it found.
 */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ""))
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join("; ")}`,
    );
  expect.soft(blocking, `${where}: axe-core's serious or critical violations`).toEqual([]);
}
