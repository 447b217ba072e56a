import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** The impacts a page may not have: what keeps someone from using it, not a matter of polish. */
const BLOCKING = new Set(["serious", "critical"]);

/**
 * One rule waived on the elements a selector names, for a violation inside third-party code that its
 * configuration cannot reach; the caller says why beside it. The element's other rules still apply.
 */
export interface AxeWaiver {
  rule: string;
  /** Matched against the end of axe's own selector of the element (its `target`). */
  selector: string;
}

/**
 * Runs axe-core over the page as it is now and fails (softly, so one run reports every page) on each
 * serious or critical violation, naming the rule, its help, how many elements it found and, for the
 * first three, where they are and why (a contrast's colours and ratio).
 */
export async function expectAccessible(
  page: Page,
  where: string,
  options: { waive?: AxeWaiver[] } = {},
): Promise<void> {
  // Only violations are read here: axe still runs every rule, but skips gathering every passing and
  // "needs review" element, which took about a fifth of the accessibility walks' CPU (issue 28).
  // Legacy mode runs axe in the page itself. The default runs it frame by frame and then finishes in a
  // new blank tab, which it opens, fills with axe again and closes at every check: a quarter of the
  // desktop walk's CPU (116 -> 86 core-s). What it buys is checking cross-origin frames, and the
  // console's pages have none in the journeys (the sandbox card form is the console's own; same-origin
  // frames are still checked).
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(true)
    .analyze();
  const waived = (rule: string, target: string) =>
    (options.waive ?? []).some((waiver) => waiver.rule === rule && target.endsWith(waiver.selector));
  const blocking = results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ""))
    .map((violation) => ({
      ...violation,
      nodes: violation.nodes.filter((node) => !waived(violation.id, node.target.join(" "))),
    }))
    .filter((violation) => violation.nodes.length > 0)
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.length} element(s): ${violation.nodes
          .slice(0, 3)
          .map((node) => `${node.target.join(" ")} [${node.any[0]?.message ?? node.failureSummary ?? ""}]`)
          .join("; ")}`,
    );
  expect.soft(blocking, `${where}: axe-core's serious or critical violations`).toEqual([]);
}
