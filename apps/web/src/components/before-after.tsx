import { Badge, Box, Center, Group, Stack, Text } from "@mantine/core";
import type { CSSProperties } from "react";
import { ReactCompareSlider, ReactCompareSliderImage } from "react-compare-slider";
import { formatImageSize, useImageSize } from "../lib/use-image-size";
import { LoadingIndicator } from "./loading-indicator";

/** Pixels added around the original on each side (the result is larger: image extension). */
export interface BeforeAfterInset {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

const CHECKERBOARD =
  "repeating-conic-gradient(var(--mantine-color-gray-2) 0% 25%, var(--mantine-color-white) 0% 50%) 50% / 16px 16px";

const FIT: CSSProperties = { objectFit: "contain", width: "100%", height: "100%" };

/** The Before and After labels lie over the slider's layers and let the pointer through. */
const LABEL: CSSProperties = { pointerEvents: "none", zIndex: 2 };

const percent = (part: number, whole: number) => `${(part / whole) * 100}%`;

/**
 * A before/after comparison of an edit on react-compare-slider: drag the handle, or focus it and use the
 * arrow keys (it is a `slider` for assistive technology). The frame takes the result's shape and fits
 * the viewport, so a small result is shown large and a large one whole. With an inset the original is
 * drawn where it sits inside the larger result.
 */
export function BeforeAfter({
  before,
  after,
  inset,
  maxHeight = "70vh",
}: {
  before: string;
  after: string;
  inset?: BeforeAfterInset;
  /** The tallest the frame may be, a CSS length. */
  maxHeight?: string;
}) {
  const beforeSize = useImageSize(before);
  const afterSize = useImageSize(after);
  if (!beforeSize || !afterSize) {
    return (
      <Center h={240}>
        <LoadingIndicator label="Loading the comparison" />
      </Center>
    );
  }

  const width = `min(100%, calc(${maxHeight} * ${afterSize.width / afterSize.height}))`;
  const frame: CSSProperties = {
    position: "relative",
    width,
    aspectRatio: `${afterSize.width} / ${afterSize.height}`,
    margin: "0 auto",
    background: CHECKERBOARD,
    borderRadius: "var(--mantine-radius-md)",
    overflow: "hidden",
  };

  let beforeItem = <ReactCompareSliderImage src={before} alt="Before" style={FIT} />;
  if (inset) {
    const width = beforeSize.width + inset.left + inset.right;
    const height = beforeSize.height + inset.top + inset.bottom;
    beforeItem = (
      <Box pos="relative" w="100%" h="100%">
        <img
          src={before}
          alt="Before"
          style={{
            position: "absolute",
            left: percent(inset.left, width),
            top: percent(inset.top, height),
            width: percent(beforeSize.width, width),
            height: percent(beforeSize.height, height),
          }}
        />
      </Box>
    );
  }

  return (
    <Stack gap="sm">
      <div style={frame} data-testid="before-after">
        <ReactCompareSlider
          itemOne={beforeItem}
          itemTwo={<ReactCompareSliderImage src={after} alt="After" style={FIT} />}
          keyboardIncrement="5%"
          style={{ width: "100%", height: "100%" }}
        />
        <Badge pos="absolute" top={10} left={10} variant="filled" color="dark" style={LABEL}>
          Before
        </Badge>
        <Badge pos="absolute" top={10} right={10} variant="filled" color="dark" style={LABEL}>
          After
        </Badge>
      </div>
      <Group justify="space-between" gap="xs" style={{ width, margin: "0 auto" }}>
        <Text size="sm" c="dimmed" data-testid="before-size">
          Before · {formatImageSize(beforeSize)}
        </Text>
        <Text size="sm" c="dimmed" data-testid="after-size">
          After · {formatImageSize(afterSize)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed" ta="center">
        Drag the handle, or focus it and use the arrow keys.
      </Text>
    </Stack>
  );
}
