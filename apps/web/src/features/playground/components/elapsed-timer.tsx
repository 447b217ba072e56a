import { ELAPSED_TIMER_REFRESH_MS } from "@prism/contract";
import { useEffect, useState } from "react";
import { formatElapsed } from "../lib/elapsed";

/** The live counter of a generating row: seconds with one decimal, refreshed every 100 ms. */
export function ElapsedTimer({ startedAt }: { startedAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ELAPSED_TIMER_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return <span data-testid="elapsed-timer">{formatElapsed(now - startedAt)}</span>;
}
