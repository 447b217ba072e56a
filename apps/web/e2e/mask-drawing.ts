import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

type Box = NonNullable<Awaited<ReturnType<Locator["boundingBox"]>>>;

/**
 * The box of an element once the popup's opening transition has finished and the image is fitted: two
 * readings 200 ms apart agree. Drawing earlier aims at where the canvas is moving from, which made the
 * mask journeys flaky.
 */
export async function settledBox(locator: Locator): Promise<Box> {
  let previous = "";
  await expect
    .poll(
      async () => {
        const box = await locator.boundingBox();
        const reading = box && box.width > 100 ? JSON.stringify(box) : "";
        const settled = reading !== "" && reading === previous;
        previous = reading;
        return settled;
      },
      { timeout: 10_000, interval: 200 },
    )
    .toBe(true);
  const box = await locator.boundingBox();
  if (!box) throw new Error("the element has no box");
  return box;
}

/** Opens the mask popup titled after the screen's button and waits until its drawing canvas is still. */
export async function openMaskPopup(
  page: Page,
  title: string,
): Promise<{ popup: Locator; canvas: Locator; box: Box }> {
  await page.getByRole("button", { name: title }).click();
  const popup = page.getByRole("dialog", { name: title });
  await popup.waitFor();
  const canvas = popup.getByTestId("mask-canvas");
  await canvas.waitFor();
  const box = await settledBox(canvas);
  return { popup, canvas, box };
}

/** Drags the mouse through points given in image pixels (the canvas is the image scaled to fit). */
export async function stroke(page: Page, canvas: Locator, imageWidth: number, points: [number, number][]) {
  const box = await canvas.boundingBox();
  if (!box) throw new Error("the mask canvas is not laid out");
  const scale = box.width / imageWidth;
  const at = ([x, y]: [number, number]) => [box.x + x * scale, box.y + y * scale] as const;
  const [first, ...rest] = points;
  if (!first) return;
  await page.mouse.move(...at(first));
  await page.mouse.down();
  for (const point of rest) await page.mouse.move(...at(point), { steps: 8 });
  await page.mouse.up();
}

/** Share of the canvas's pixels that show the mask overlay. */
export function paintedShare(canvas: Locator): Promise<number> {
  return canvas.evaluate((element: HTMLCanvasElement) => {
    const context = element.getContext("2d");
    if (!context) return -1;
    const { data } = context.getImageData(0, 0, element.width, element.height);
    let painted = 0;
    for (let index = 3; index < data.length; index += 4) if ((data[index] ?? 0) > 0) painted += 1;
    return painted / (element.width * element.height);
  });
}
