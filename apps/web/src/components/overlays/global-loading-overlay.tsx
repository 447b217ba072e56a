import { lazy, Suspense } from "react";
import { useIsLoading } from "./loading-store";
import { useLatch } from "./use-latch";

// Loaded the first time something shows it: the sign-in page opens without it (issue 16).
const LoadingOverlayView = lazy(async () => ({
  default: (await import("./loading-overlay-view")).LoadingOverlayView,
}));

/** The app-wide blocking overlay driven by showLoading()/hideLoading(): the spec's particle effect. */
export function GlobalLoadingOverlay() {
  const visible = useIsLoading();
  const needed = useLatch(visible);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <LoadingOverlayView visible={visible} />
    </Suspense>
  );
}
