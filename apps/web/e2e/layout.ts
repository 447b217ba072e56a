import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Layout assertions for the phone passes: what a person on a small screen would see as broken (a
 * sideways scroll, a button cut at the edge, a label shortened to an ellipsis) fails the journey. They
 * are soft, so one run reports every broken page rather than stopping at the first.
 */

/**
 * The width the page was given. A phone browser zooms out to show a page wider than the screen, which
 * widens `innerWidth` with it, so the checks compare against the emulated screen instead.
 */
function screenWidth(page: Page): number {
  const viewport = page.viewportSize();
  if (!viewport) throw new Error("the page has no fixed viewport");
  return viewport.width;
}

/** The page never scrolls sideways nor is zoomed out: nothing is wider than the screen. */
export async function expectNoHorizontalOverflow(page: Page, where: string): Promise<void> {
  const width = screenWidth(page);
  const { scrollWidth, innerWidth, widest } = await page.evaluate((screen) => {
    // The element sticking out furthest names the culprit when the check fails.
    let widest = "";
    let widestRight = screen;
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= widestRight + 1) continue;
      widestRight = box.right;
      const classes = typeof element.className === "string" ? element.className.split(" ")[0] : "";
      widest = `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ""} (right edge ${Math.round(box.right)})`;
    }
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      widest,
    };
  }, width);
  expect
    .soft(scrollWidth, `${where}: the page scrolls sideways; widest: ${widest}`)
    .toBeLessThanOrEqual(width);
  expect
    .soft(innerWidth, `${where}: the page is zoomed out to fit; widest: ${widest}`)
    .toBeLessThanOrEqual(width);
}

/** The element lies fully inside the viewport's width (not cut at either edge). */
export async function expectWithinViewportWidth(locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, `${what} is not rendered`).not.toBeNull();
  const width = screenWidth(locator.page());
  expect.soft(box!.x, `${what} starts left of the screen`).toBeGreaterThanOrEqual(-0.5);
  expect.soft(box!.x + box!.width, `${what} ends right of the screen`).toBeLessThanOrEqual(width + 0.5);
}

/**
 * The element shows its whole text: it is not shortened with an ellipsis nor cut by its own box, and
 * it is visible inside the viewport's width.
 */
export async function expectTextNotClipped(locator: Locator, what: string): Promise<void> {
  await expectWithinViewportWidth(locator, what);
  const { scrollWidth, clientWidth, text } = await locator.evaluate((element) => ({
    scrollWidth: element.scrollWidth,
    clientWidth: element.clientWidth,
    text: element.textContent ?? "",
  }));
  expect.soft(text.trim(), `${what} has no text`).not.toBe("");
  expect.soft(scrollWidth, `${what} ("${text}") is cut off`).toBeLessThanOrEqual(clientWidth + 1);
}

/**
 * Every visible button and link of the top bar and the page lies inside the viewport's width, so none is
 * reachable only through a sideways scroll of a table.
 */
export async function expectActionsWithinViewport(page: Page, where: string): Promise<void> {
  const outside = await page.evaluate((width) => {
    // The header and the page; the sidebar of a phone is a drawer moved off screen while closed.
    return [
      ...document.querySelectorAll<HTMLElement>(":is(header, main) :is(button, a[href], [role=button])"),
    ]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        const style = getComputedStyle(element);
        if (style.visibility === "hidden") return false;
        return box.left < -0.5 || box.right > width + 0.5;
      })
      .map(
        (element) =>
          `${element.getAttribute("aria-label") ?? element.textContent?.trim() ?? element.tagName} (${Math.round(element.getBoundingClientRect().left)}–${Math.round(element.getBoundingClientRect().right)})`,
      );
  }, screenWidth(page));
  expect.soft(outside, `${where}: actions outside the screen`).toEqual([]);
}

/** The checks every page of a phone pass runs. */
export async function expectPhoneLayout(page: Page, where: string): Promise<void> {
  await expectNoHorizontalOverflow(page, where);
  await expectActionsWithinViewport(page, where);
}
