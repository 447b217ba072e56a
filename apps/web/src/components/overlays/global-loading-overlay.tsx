import { LoadingOverlay } from "@mantine/core";
import { useIsLoading } from "./loading-store";
import { ParticleField } from "./particle-field";

/** The app-wide blocking overlay driven by showLoading()/hideLoading(): the spec's particle effect. */
export function GlobalLoadingOverlay() {
  const visible = useIsLoading();
  return (
    <LoadingOverlay
      visible={visible}
      pos="fixed"
      zIndex={1000}
      overlayProps={{ backgroundOpacity: 0.45, blur: 1 }}
      loaderProps={{ children: <ParticleField /> }}
      aria-label={visible ? "Loading" : undefined}
    />
  );
}
