import { ActionIcon, Box, Group, Modal, Text } from "@mantine/core";
import { LIGHTBOX_FADE_MS, LIGHTBOX_IMAGE_FADE_MS, LIGHTBOX_RESIZE_MS } from "@prism/contract";
import { IconChevronLeft, IconChevronRight, IconX } from "@tabler/icons-react";
import { useEffect, useState } from "react";

export interface LightboxImage {
  src: string;
  alt: string;
  caption?: string;
}

/** The next index with wrap-around in both directions. */
export function wrapIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((index % count) + count) % count;
}

/**
 * The history gallery (001 §2): opens on one image, steps through all of them with wrap-around
 * (buttons or arrow keys), fades in over 200 ms, resizes its frame over 200 ms and fades each image in
 * over 100 ms. A Mantine modal stands in until a maintained lightbox library is approved.
 */
export function Lightbox({
  images,
  index,
  onIndexChange,
  onClose,
}: {
  images: readonly LightboxImage[];
  /** The open image, or null when the gallery is closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}) {
  const opened = index !== null && images.length > 0;
  const current = opened ? images[wrapIndex(index, images.length)] : undefined;
  const [loaded, setLoaded] = useState(false);
  const currentSrc = current?.src;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the fade restarts whenever the image changes.
  useEffect(() => {
    setLoaded(false);
  }, [currentSrc]);

  useEffect(() => {
    if (!opened || index === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "ArrowRight") onIndexChange(wrapIndex(index + 1, images.length));
      if (event.key === "ArrowLeft") onIndexChange(wrapIndex(index - 1, images.length));
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [opened, index, images.length, onIndexChange]);

  const step = (delta: number) => {
    if (index !== null) onIndexChange(wrapIndex(index + delta, images.length));
  };
  const many = images.length > 1;

  return (
    <Modal.Root
      opened={opened}
      onClose={onClose}
      centered
      size="auto"
      padding={0}
      radius="md"
      transitionProps={{ transition: "fade", duration: LIGHTBOX_FADE_MS }}
    >
      <Modal.Overlay backgroundOpacity={0.85} blur={2} />
      <Modal.Content
        aria-label="Image gallery"
        style={{ background: "transparent", boxShadow: "none", overflow: "visible" }}
      >
        <Modal.Body p={0} style={{ overflow: "visible" }}>
          {current ? (
            <Box pos="relative">
              <Box
                style={{
                  transition: `width ${LIGHTBOX_RESIZE_MS}ms ease, height ${LIGHTBOX_RESIZE_MS}ms ease`,
                  background: "repeating-conic-gradient(#e9ecef 0% 25%, #ffffff 0% 50%) 50% / 20px 20px",
                  borderRadius: "var(--mantine-radius-md)",
                  overflow: "hidden",
                  lineHeight: 0,
                }}
              >
                <img
                  key={current.src}
                  src={current.src}
                  alt={current.alt}
                  onLoad={() => setLoaded(true)}
                  style={{
                    display: "block",
                    maxWidth: "min(86vw, 1400px)",
                    maxHeight: "80vh",
                    minWidth: 120,
                    minHeight: 120,
                    objectFit: "contain",
                    opacity: loaded ? 1 : 0,
                    transition: `opacity ${LIGHTBOX_IMAGE_FADE_MS}ms ease`,
                  }}
                />
              </Box>
              <Group justify="space-between" mt="xs" wrap="nowrap">
                <Text size="sm" c="gray.3">
                  {current.caption ?? current.alt}
                  {many ? ` · ${wrapIndex(index ?? 0, images.length) + 1} / ${images.length}` : ""}
                </Text>
                <ActionIcon
                  variant="filled"
                  color="dark"
                  radius="xl"
                  onClick={onClose}
                  aria-label="Close gallery"
                >
                  <IconX size={18} aria-hidden />
                </ActionIcon>
              </Group>
              {many ? (
                <>
                  <ActionIcon
                    pos="absolute"
                    left={-52}
                    top="calc(50% - 34px)"
                    size="xl"
                    radius="xl"
                    variant="filled"
                    color="dark"
                    onClick={() => step(-1)}
                    aria-label="Previous image"
                  >
                    <IconChevronLeft aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    pos="absolute"
                    right={-52}
                    top="calc(50% - 34px)"
                    size="xl"
                    radius="xl"
                    variant="filled"
                    color="dark"
                    onClick={() => step(1)}
                    aria-label="Next image"
                  >
                    <IconChevronRight aria-hidden />
                  </ActionIcon>
                </>
              ) : null}
            </Box>
          ) : null}
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
