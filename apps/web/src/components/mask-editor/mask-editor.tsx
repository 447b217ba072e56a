import { Box, Button, Group, Modal, SegmentedControl } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import {
  BRUSH_DEFAULT,
  BRUSH_MAX,
  BRUSH_MIN,
  MASK_OPACITY_DEFAULT,
  MASK_OPACITY_MAX,
  MASK_OPACITY_MIN,
  MASK_OPACITY_STEP,
} from "@prism/contract";
import { type PointerEvent as ReactPointerEvent, useCallback, useEffect, useRef, useState } from "react";
import { ValueSlider } from "../value-slider";
import { maskToOpaquePng, maskToTransparentPng } from "./mask-encode";
import {
  type BrushMode,
  createMask,
  displayToImage,
  overlayRgbaRegion,
  type Point,
  paintStroke,
  type Rect,
  type Rgb,
} from "./mask-math";

/** What "I'm Done" hands back: the mask at the image's full resolution and its two PNG encodings. */
export interface MaskEditorResult {
  /** `width * height` alpha values, row-major: 255 = selected, 0 = not. */
  mask: Uint8Array;
  width: number;
  height: number;
  /** Opaque black/white PNG (white = selected). */
  toOpaquePng(): Promise<Blob>;
  /** Transparent PNG (selected = white, the rest transparent). */
  toTransparentPng(): Promise<Blob>;
}

export interface MaskEditorProps {
  opened: boolean;
  /** Object URL of the uploaded image. */
  imageUrl: string;
  /** The image's natural (full) resolution; the mask is kept at this size. */
  imageWidth: number;
  imageHeight: number;
  /** The current mask to continue from (ignored unless exactly `imageWidth * imageHeight`). */
  initialMask?: Uint8Array | null;
  onDone(result: MaskEditorResult): void;
  /** Closing without I'm Done discards the edits. */
  onClose(): void;
  /** The popup title: the screen's button text (e.g. "Select Object to Remove"). */
  title?: string;
}

const MODES = [
  { label: "Draw", value: "draw" },
  { label: "Erase", value: "erase" },
];

/**
 * The colour the mask is shown in while drawing (the console's violet): white, the colour of the mask
 * the popup returns, would vanish on light pictures. The Opacity slider sets how strongly it shows.
 */
const MASK_DISPLAY_COLOR: Rgb = [121, 80, 242];

/** Fallback display size before layout is known (and in jsdom, which has no layout). */
const FALLBACK_STAGE = { width: 800, height: 600 };

function drawRegion(canvas: HTMLCanvasElement, mask: Uint8Array, maskWidth: number, rect: Rect): void {
  if (rect.width <= 0 || rect.height <= 0) return;
  const context = canvas.getContext("2d");
  if (!context) return;
  const image = context.createImageData(rect.width, rect.height);
  image.data.set(overlayRgbaRegion(mask, maskWidth, rect, 255, MASK_DISPLAY_COLOR));
  context.putImageData(image, rect.x, rect.y);
}

function capturePointer(element: Element, pointerId: number): void {
  try {
    if (typeof element.setPointerCapture === "function") element.setPointerCapture(pointerId);
  } catch {
    // The pointer may already be gone (synthetic events); drawing still works without capture.
  }
}

function releasePointer(element: Element, pointerId: number): void {
  try {
    if (typeof element.hasPointerCapture === "function" && element.hasPointerCapture(pointerId)) {
      element.releasePointerCapture(pointerId);
    }
  } catch {
    // Nothing to release.
  }
}

/**
 * The shared full-screen mask popup: Draw / Erase, Shape Size (brush radius in screen pixels,
 * 2–200, default 30), Opacity of the overlay (0–1 step 0.05, default 0.8), Clear and I'm Done. The
 * image is fitted to the screen; the mask is painted at the image's full resolution on a canvas over
 * it, with mouse, pen and touch through Pointer Events.
 */
export function MaskEditor({
  opened,
  imageUrl,
  imageWidth,
  imageHeight,
  initialMask,
  onDone,
  onClose,
  title = "Draw the Mask",
}: MaskEditorProps) {
  const [mode, setMode] = useState<BrushMode>("draw");
  const [brush, setBrush] = useState(BRUSH_DEFAULT);
  const [opacity, setOpacity] = useState(MASK_OPACITY_DEFAULT);
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  const { ref: stageRef, width: stageWidth, height: stageHeight } = useElementSize();
  const maskRef = useRef<Uint8Array | null>(null);
  const strokeRef = useRef<{ pointerId: number; last: Point } | null>(null);
  const cursorRef = useRef<HTMLDivElement | null>(null);

  const size = imageWidth * imageHeight;

  /** The working mask, created from `initialMask` when the popup opens (or the image size changes). */
  const ensureMask = useCallback((): Uint8Array => {
    const current = maskRef.current;
    if (current && current.length === size) return current;
    const created = createMask(imageWidth, imageHeight, initialMask);
    maskRef.current = created;
    return created;
  }, [size, imageWidth, imageHeight, initialMask]);

  // Closing drops the working copy, so the next opening starts again from `initialMask`.
  useEffect(() => {
    if (!opened) {
      maskRef.current = null;
      strokeRef.current = null;
    }
  }, [opened]);

  // Paint the whole overlay when the canvas appears (or is resized, which clears it).
  useEffect(() => {
    if (!canvas || !opened) return;
    drawRegion(canvas, ensureMask(), imageWidth, { x: 0, y: 0, width: imageWidth, height: imageHeight });
  }, [canvas, opened, ensureMask, imageWidth, imageHeight]);

  const stage =
    stageWidth > 0 && stageHeight > 0 ? { width: stageWidth, height: stageHeight } : FALLBACK_STAGE;
  const scale =
    imageWidth > 0 && imageHeight > 0 ? Math.min(stage.width / imageWidth, stage.height / imageHeight) : 1;
  const displayWidth = Math.max(1, Math.floor(imageWidth * scale));
  const displayHeight = Math.max(1, Math.floor(imageHeight * scale));

  const moveCursor = (event: ReactPointerEvent<HTMLElement>) => {
    const cursor = cursorRef.current;
    if (!cursor || !canvas) return;
    const box = canvas.getBoundingClientRect();
    cursor.style.display = "block";
    cursor.style.transform = `translate(${event.clientX - box.left - brush}px, ${event.clientY - box.top - brush}px)`;
  };

  const hideCursor = () => {
    if (cursorRef.current) cursorRef.current.style.display = "none";
  };

  /** Paints from the stroke's last point to the event's position (a dot on the first call). */
  const paintTo = (event: ReactPointerEvent<HTMLElement>, from: Point | null): Point | null => {
    const target = canvas;
    if (!target) return null;
    const box = target.getBoundingClientRect();
    const point = displayToImage(event.clientX, event.clientY, box, imageWidth, imageHeight);
    if (!point) return null;
    // Shape Size is a radius on screen; on the full-resolution mask it is scaled by the display ratio.
    const radius = (brush * imageWidth) / box.width;
    const mask = ensureMask();
    const dirty = paintStroke(mask, imageWidth, imageHeight, from ? [from, point] : [point], radius, mode);
    if (dirty) drawRegion(target, mask, imageWidth, dirty);
    return point;
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLElement>) => {
    if (strokeRef.current) return; // one stroke at a time (ignore a second finger)
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.preventDefault();
    capturePointer(event.currentTarget, event.pointerId);
    moveCursor(event);
    const point = paintTo(event, null);
    if (point) strokeRef.current = { pointerId: event.pointerId, last: point };
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLElement>) => {
    if (event.pointerType !== "touch") moveCursor(event);
    const stroke = strokeRef.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    const point = paintTo(event, stroke.last);
    if (point) stroke.last = point;
  };

  const endStroke = (event: ReactPointerEvent<HTMLElement>) => {
    const stroke = strokeRef.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    strokeRef.current = null;
    releasePointer(event.currentTarget, event.pointerId);
    if (event.pointerType === "touch") hideCursor();
  };

  const clear = () => {
    const mask = ensureMask();
    mask.fill(0);
    const context = canvas?.getContext("2d");
    context?.clearRect(0, 0, imageWidth, imageHeight);
  };

  const done = () => {
    const mask = ensureMask().slice();
    const width = imageWidth;
    const height = imageHeight;
    onDone({
      mask,
      width,
      height,
      toOpaquePng: () => maskToOpaquePng(mask, width, height),
      toTransparentPng: () => maskToTransparentPng(mask, width, height),
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      fullScreen
      styles={{
        content: { display: "flex", flexDirection: "column" },
        body: {
          flex: 1,
          minHeight: 0,
          display: "flex",
          flexDirection: "column",
          gap: "var(--mantine-spacing-md)",
        },
      }}
    >
      <Group gap="lg" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Brush mode"
          data={MODES}
          value={mode}
          onChange={(value) => setMode(value === "erase" ? "erase" : "draw")}
        />
        <ValueSlider
          label="Shape Size"
          min={BRUSH_MIN}
          max={BRUSH_MAX}
          step={1}
          value={brush}
          onChange={setBrush}
          format={(value) => `${value}px`}
          compact
        />
        <ValueSlider
          label="Opacity"
          min={MASK_OPACITY_MIN}
          max={MASK_OPACITY_MAX}
          step={MASK_OPACITY_STEP}
          value={opacity}
          onChange={setOpacity}
          format={(value) => value.toFixed(2)}
          compact
        />
        <Group gap="sm" ml="auto">
          <Button variant="default" onClick={clear}>
            Clear
          </Button>
          <Button onClick={done}>I'm Done</Button>
        </Group>
      </Group>
      <Box
        ref={stageRef}
        data-testid="mask-stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endStroke}
        onPointerCancel={endStroke}
        onLostPointerCapture={endStroke}
        onPointerLeave={hideCursor}
        style={{
          flex: 1,
          minHeight: 0,
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
          overflow: "hidden",
          touchAction: "none",
          cursor: "none",
          // A drag that starts in the margin must paint, not select the page's text behind the popup.
          userSelect: "none",
          WebkitUserSelect: "none",
        }}
      >
        <Box pos="relative" style={{ width: displayWidth, height: displayHeight, flex: "none" }}>
          <img
            src={imageUrl}
            alt="Masked"
            draggable={false}
            style={{
              position: "absolute",
              inset: 0,
              width: "100%",
              height: "100%",
              userSelect: "none",
              pointerEvents: "none",
            }}
          />
          <canvas
            ref={setCanvas}
            data-testid="mask-canvas"
            aria-label="Mask drawing area"
            width={imageWidth}
            height={imageHeight}
            style={{
              position: "absolute",
              inset: 0,
              width: "100%",
              height: "100%",
              opacity,
              touchAction: "none",
              cursor: "none",
            }}
          />
          <div
            ref={cursorRef}
            data-testid="mask-brush-cursor"
            aria-hidden
            style={{
              display: "none",
              position: "absolute",
              left: 0,
              top: 0,
              width: brush * 2,
              height: brush * 2,
              borderRadius: "50%",
              border: `1px ${mode === "erase" ? "dashed" : "solid"} #ffffff`,
              boxShadow: "0 0 0 1px rgba(0, 0, 0, 0.6)",
              pointerEvents: "none",
            }}
          />
        </Box>
      </Box>
    </Modal>
  );
}
