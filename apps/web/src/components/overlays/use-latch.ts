import { useState } from "react";

/**
 * True from the first render where `on` is true, for good: a lazily loaded overlay mounts when it is
 * first needed and then stays mounted, so it can animate out and open again at once.
 */
export function useLatch(on: boolean): boolean {
  const [latched, setLatched] = useState(on);
  // Derived state, set during render as React documents for it (no extra effect pass).
  if (on && !latched) setLatched(true);
  return latched || on;
}
