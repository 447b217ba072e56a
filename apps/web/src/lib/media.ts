import { useMediaQuery } from "@mantine/hooks";

/** Below Mantine's `sm` breakpoint (48em), as its `hiddenFrom="sm"` reads it: phones. */
export const PHONE_MEDIA_QUERY = "(max-width: 47.99em)";

/** Whether the screen is a phone's. Read on the first render, so a phone never flashes a desktop layout. */
export function useIsPhone(): boolean {
  return useMediaQuery(PHONE_MEDIA_QUERY, false, { getInitialValueInEffect: false });
}
