import { MantineProvider } from "@mantine/core";
import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MaskEditor, type MaskEditorResult } from "./mask-editor";
import { isMaskEmpty } from "./mask-math";

// jsdom has no 2D canvas: a minimal stand-in records what the editor paints.
const context = {
  createImageData: (width: number, height: number) => ({
    width,
    height,
    data: new Uint8ClampedArray(width * height * 4),
  }),
  putImageData: vi.fn(),
  clearRect: vi.fn(),
  fillRect: vi.fn(),
  fillStyle: "",
};

const encoded: Array<{ width: number; height: number; type: string | undefined }> = [];

const IMAGE_WIDTH = 400;
const IMAGE_HEIGHT = 200;
// The canvas is shown at a quarter of the image's size: 100×50 screen pixels at (0, 0).
const DISPLAY = { left: 0, top: 0, width: 100, height: 50, x: 0, y: 0, right: 100, bottom: 50 };

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(
    () => context as unknown as CanvasRenderingContext2D,
  );
  vi.spyOn(HTMLCanvasElement.prototype, "toBlob").mockImplementation(function (
    this: HTMLCanvasElement,
    callback,
    type,
  ) {
    encoded.push({ width: this.width, height: this.height, type });
    callback(new Blob(["encoded"], { type: type ?? "image/png" }));
  });
  vi.spyOn(HTMLCanvasElement.prototype, "getBoundingClientRect").mockReturnValue(DISPLAY as DOMRect);
  context.putImageData.mockClear();
  encoded.length = 0;
  context.clearRect.mockClear();
});

afterEach(() => {
  vi.restoreAllMocks();
});

function renderEditor(initialMask?: Uint8Array) {
  const onDone = vi.fn<(result: MaskEditorResult) => void>();
  const onClose = vi.fn();
  render(
    <MantineProvider>
      <MaskEditor
        opened
        imageUrl="blob:image"
        imageWidth={IMAGE_WIDTH}
        imageHeight={IMAGE_HEIGHT}
        initialMask={initialMask}
        onDone={onDone}
        onClose={onClose}
        title="Select Object to Remove"
      />
    </MantineProvider>,
  );
  return { onDone, onClose };
}

const canvas = () => screen.getByTestId("mask-canvas");
const maskAt = (mask: Uint8Array, x: number, y: number) => mask[y * IMAGE_WIDTH + x];

function stroke(points: Array<[number, number]>) {
  const [first, ...rest] = points;
  fireEvent.pointerDown(canvas(), {
    pointerId: 1,
    pointerType: "mouse",
    button: 0,
    clientX: first![0],
    clientY: first![1],
  });
  for (const [x, y] of rest)
    fireEvent.pointerMove(canvas(), { pointerId: 1, pointerType: "mouse", clientX: x, clientY: y });
  const [lastX, lastY] = points[points.length - 1]!;
  fireEvent.pointerUp(canvas(), { pointerId: 1, pointerType: "mouse", clientX: lastX, clientY: lastY });
}

function finish(onDone: ReturnType<typeof renderEditor>["onDone"]): MaskEditorResult {
  fireEvent.click(screen.getByRole("button", { name: "I'm Done" }));
  expect(onDone).toHaveBeenCalledTimes(1);
  return onDone.mock.calls[0]![0];
}

describe("MaskEditor", () => {
  it("shows the controls with the spec's defaults and ranges", async () => {
    renderEditor();
    expect(await screen.findByText("Select Object to Remove")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Draw" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Erase" })).not.toBeChecked();

    const size = screen.getByRole("slider", { name: "Shape Size" });
    expect(size).toHaveAttribute("aria-valuemin", "2");
    expect(size).toHaveAttribute("aria-valuemax", "200");
    expect(size).toHaveAttribute("aria-valuenow", "30");

    const opacity = screen.getByRole("slider", { name: "Opacity" });
    expect(opacity).toHaveAttribute("aria-valuemin", "0");
    expect(opacity).toHaveAttribute("aria-valuemax", "1");
    expect(opacity).toHaveAttribute("aria-valuenow", "0.8");
    expect(canvas()).toHaveStyle({ opacity: "0.8" });

    // One keyboard step is 0.05 and drives the overlay's opacity.
    fireEvent.keyDown(opacity, { key: "ArrowRight" });
    expect(opacity).toHaveAttribute("aria-valuenow", "0.85");
    expect(canvas()).toHaveStyle({ opacity: "0.85" });

    expect(screen.getByRole("button", { name: "Clear" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "I'm Done" })).toBeInTheDocument();
    // The canvas works at the image's full resolution.
    expect(canvas()).toHaveAttribute("width", "400");
    expect(canvas()).toHaveAttribute("height", "200");
  });

  it("returns a full-resolution mask of what was drawn", async () => {
    const { onDone } = renderEditor();
    await screen.findByTestId("mask-canvas");
    fireEvent.keyDown(screen.getByRole("slider", { name: "Shape Size" }), { key: "Home" });
    // Screen (10, 25) → image (40, 100); screen (90, 25) → image (360, 100). Radius 2 screen px = 8 image px.
    stroke([
      [10, 25],
      [90, 25],
    ]);
    expect(context.putImageData).toHaveBeenCalled();
    const result = finish(onDone);
    expect(result.width).toBe(IMAGE_WIDTH);
    expect(result.height).toBe(IMAGE_HEIGHT);
    expect(result.mask).toHaveLength(IMAGE_WIDTH * IMAGE_HEIGHT);
    expect(maskAt(result.mask, 200, 100)).toBe(255); // between the two samples: interpolated
    expect(maskAt(result.mask, 200, 106)).toBe(255);
    expect(maskAt(result.mask, 200, 109)).toBe(0);
    expect(maskAt(result.mask, 33, 100)).toBe(255); // round cap
    expect(maskAt(result.mask, 30, 100)).toBe(0);
    expect(maskAt(result.mask, 0, 0)).toBe(0);

    const opaque = await result.toOpaquePng();
    expect(opaque.type).toBe("image/png");
    expect(encoded.at(-1)).toEqual({ width: 400, height: 200, type: "image/png" });
    expect((await result.toTransparentPng()).type).toBe("image/png");
  });

  it("erases and clears", async () => {
    const { onDone } = renderEditor(new Uint8Array(IMAGE_WIDTH * IMAGE_HEIGHT).fill(255));
    await screen.findByTestId("mask-canvas");
    fireEvent.click(screen.getByRole("radio", { name: "Erase" }));
    stroke([[50, 25]]);
    fireEvent.click(screen.getByRole("button", { name: "I'm Done" }));
    const erased = onDone.mock.calls[0]![0].mask;
    expect(maskAt(erased, 200, 100)).toBe(0);
    expect(maskAt(erased, 0, 0)).toBe(255);

    fireEvent.click(screen.getByRole("button", { name: "Clear" }));
    expect(context.clearRect).toHaveBeenCalledWith(0, 0, IMAGE_WIDTH, IMAGE_HEIGHT);
    fireEvent.click(screen.getByRole("button", { name: "I'm Done" }));
    expect(isMaskEmpty(onDone.mock.calls[1]![0].mask)).toBe(true);
  });

  it("scales the brush with Shape Size and ignores other pointers mid-stroke", async () => {
    const { onDone } = renderEditor();
    await screen.findByTestId("mask-canvas");
    const size = screen.getByRole("slider", { name: "Shape Size" });
    fireEvent.keyDown(size, { key: "Home" });
    expect(size).toHaveAttribute("aria-valuenow", "2");
    // Radius 2 screen px = 8 image px around image (200, 100).
    fireEvent.pointerDown(canvas(), { pointerId: 1, pointerType: "touch", clientX: 50, clientY: 25 });
    fireEvent.pointerMove(canvas(), { pointerId: 2, pointerType: "touch", clientX: 0, clientY: 0 });
    fireEvent.pointerUp(canvas(), { pointerId: 1, pointerType: "touch", clientX: 50, clientY: 25 });
    const { mask } = finish(onDone);
    expect(maskAt(mask, 200, 100)).toBe(255);
    expect(maskAt(mask, 207, 100)).toBe(255);
    expect(maskAt(mask, 210, 100)).toBe(0);
    expect(maskAt(mask, 0, 0)).toBe(0);
  });

  it("starts a stroke in the margin around the picture, so its edges can be painted", async () => {
    const { onDone } = renderEditor();
    await screen.findByTestId("mask-canvas");
    fireEvent.keyDown(screen.getByRole("slider", { name: "Shape Size" }), { key: "Home" });
    const stage = screen.getByTestId("mask-stage");
    // Screen (-10, 25) is left of the picture; the stroke runs into it to screen (20, 25) → image (80, 100).
    fireEvent.pointerDown(stage, {
      pointerId: 1,
      pointerType: "mouse",
      button: 0,
      clientX: -10,
      clientY: 25,
    });
    fireEvent.pointerMove(stage, { pointerId: 1, pointerType: "mouse", clientX: 20, clientY: 25 });
    fireEvent.pointerUp(stage, { pointerId: 1, pointerType: "mouse", clientX: 20, clientY: 25 });
    const { mask } = finish(onDone);
    expect(maskAt(mask, 0, 100)).toBe(255);
    expect(maskAt(mask, 80, 100)).toBe(255);
    expect(maskAt(mask, 0, 0)).toBe(0);
  });

  it("shows the brush size and opacity values and paints the overlay in colour", async () => {
    renderEditor();
    await screen.findByTestId("mask-canvas");
    expect(screen.getByTestId("shape-size-value")).toHaveTextContent("30px");
    expect(screen.getByTestId("opacity-value")).toHaveTextContent("0.80");
    fireEvent.keyDown(screen.getByRole("slider", { name: "Opacity" }), { key: "ArrowLeft" });
    expect(screen.getByTestId("opacity-value")).toHaveTextContent("0.75");
    stroke([[50, 25]]);
    const painted = context.putImageData.mock.calls.at(-1)?.[0] as { data: Uint8ClampedArray };
    const pixels = Array.from(painted.data);
    const firstPainted = pixels.findIndex((value, index) => index % 4 === 3 && value > 0);
    expect(firstPainted).toBeGreaterThan(0);
    // Not white: white would vanish on light pictures.
    expect(pixels.slice(firstPainted - 3, firstPainted)).not.toEqual([255, 255, 255]);
  });
});
