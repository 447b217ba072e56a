import { LoadingOverlay } from "@mantine/core";
import { useIsLoading } from "./loading-store";

/** The app-wide blocking overlay driven by showLoading()/hideLoading(). */
export function GlobalLoadingOverlay() {
  const visible = useIsLoading();
  return (
    <LoadingOverlay
      visible={visible}
      pos="fixed"
      zIndex={1000}
      overlayProps={{ backgroundOpacity: 0.45, blur: 1 }}
      loaderProps={{ type: "dots", size: "lg" }}
      aria-label={visible ? "Loading" : undefined}
    />
  );
}
