import { useMediaQuery } from "@mantine/hooks";

/** Below Mantine's `sm` breakpoint (48em), as its `hiddenFrom="sm"` reads it: phones. */
export const PHONE_MEDIA_QUERY = "(max-width: 47.99em)";

/** Whether the screen is a phone's. Read on the first render, so a phone never flashes a desktop layout. */
export function useIsPhone(): boolean {
  return useMediaQuery(PHONE_MEDIA_QUERY, false, { getInitialValueInEffect: false });
}

/**
 * Below Mantine's `md` breakpoint (62em): where the playground's two panels stack, the options above
 * the history instead of to its left.
 */
export const STACKED_PANELS_MEDIA_QUERY = "(max-width: 61.99em)";

/** Whether the playground's panels are stacked (phones and narrow tablets). */
export function useStackedPanels(): boolean {
  return useMediaQuery(STACKED_PANELS_MEDIA_QUERY, false, { getInitialValueInEffect: false });
}
