import { LoadingOverlay } from "@mantine/core";
import { ParticleField } from "./particle-field";

/** The blocking overlay itself with the spec's particle effect (loaded the first time it is shown). */
export function LoadingOverlayView({ visible }: { visible: boolean }) {
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
