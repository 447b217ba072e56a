import type { ButtonProps } from "@mantine/core";

/**
 * Lets a button's label wrap instead of being cut off: "Please add a Payment Method first" is wider
 * than a phone's card.
 */
export const WRAPPING_BUTTON_STYLES: ButtonProps["styles"] = {
  root: { height: "auto", minHeight: 36, paddingBlock: 8 },
  label: { whiteSpace: "normal", textAlign: "center", lineHeight: 1.35, overflow: "visible" },
};
