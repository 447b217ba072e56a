import { Badge, Button, Group, Stack, Text } from "@mantine/core";
import { IconBrush } from "@tabler/icons-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { isMaskEmpty, MaskEditor, type MaskEditorResult } from "../../../components/mask-editor";
import { RemoveButton } from "../../../components/upload-dropzone";
import { formatCoverage, maskCoverage } from "../lib/mask-requests";
import { type ImageSize, readImageSize } from "../lib/upload-checks";

/** A drawn mask at the image's full resolution. */
export interface DrawnMask {
  mask: Uint8Array;
  width: number;
  height: number;
  /** Encoders of the editor (white = selected). */
  toOpaquePng(): Promise<Blob>;
  toTransparentPng(): Promise<Blob>;
}

/** An uploaded image's object URL and natural size, for the mask editor. */
export interface LoadedImage extends ImageSize {
  url: string;
}

/**
 * Object URL and natural size of the chosen file (null while reading or without a file). The URL is
 * revoked when the file changes.
 */
export function useLoadedImage(file: File | null): LoadedImage | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  const [size, setSize] = useState<{ url: string; size: ImageSize } | null>(null);
  useEffect(() => {
    if (!url || !file) return;
    let current = true;
    readImageSize(file).then(
      (read) => {
        if (current) setSize({ url, size: read });
      },
      () => undefined,
    );
    return () => {
      current = false;
      URL.revokeObjectURL(url);
    };
  }, [file, url]);
  return url && size?.url === url ? { url, ...size.size } : null;
}

/** A Blob as a named File for the multipart form. */
export function asFile(blob: Blob, name: string): File {
  return new File([blob], name, { type: blob.type || "image/png" });
}

/** The drawn mask as the opaque black and white PNG the mask features take. */
export async function opaqueMaskFile(mask: DrawnMask): Promise<File> {
  return asFile(await mask.toOpaquePng(), "mask.png");
}

/** The image and the drawn mask as the multipart files of the mask features (empty when missing). */
export async function imageAndMaskFiles(
  image: File | null,
  mask: DrawnMask | null,
): Promise<Record<string, File[]>> {
  return { image: image ? [image] : [], mask: mask ? [await opaqueMaskFile(mask)] : [] };
}

export interface ImageWithMask {
  image: File | null;
  /** Chooses (or clears) the image and drops the mask drawn over the previous one. */
  changeImage: (file: File | null) => void;
  mask: DrawnMask | null;
  setMask: (mask: DrawnMask | null) => void;
  /** The image's object URL and size for the mask editor, null while it is read. */
  loaded: LoadedImage | null;
}

/** The state of a screen that draws a mask over its uploaded image: a new image clears the mask. */
export function useImageWithMask(): ImageWithMask {
  const [image, setImage] = useState<File | null>(null);
  const [mask, setMask] = useState<DrawnMask | null>(null);
  const loaded = useLoadedImage(image);
  const changeImage = useCallback((file: File | null) => {
    setImage(file);
    setMask(null);
  }, []);
  return { image, changeImage, mask, setMask, loaded };
}

export interface MaskFieldProps {
  /** The button's text, also the popup's title (e.g. "Select Object to Remove"). */
  label: string;
  /** The uploaded image; the button is disabled without it. */
  image: LoadedImage | null;
  mask: DrawnMask | null;
  onChange: (mask: DrawnMask | null) => void;
  disabled?: boolean;
}

/**
 * The draw-mask button of a screen with its state line (Mask popup): opens the shared mask
 * editor over the uploaded image, keeps what I'm Done returns, and offers to clear it. Screens reset the
 * mask to null when a new image is uploaded.
 */
export function MaskField({ label, image, mask, onChange, disabled }: MaskFieldProps) {
  const [opened, setOpened] = useState(false);
  const drawn = mask !== null && !isMaskEmpty(mask.mask);
  const coverage = useMemo(() => (mask ? maskCoverage(mask.mask) : 0), [mask]);

  const done = (result: MaskEditorResult) => {
    setOpened(false);
    onChange(isMaskEmpty(result.mask) ? null : result);
  };

  return (
    <Stack gap={6}>
      <Button
        variant="light"
        leftSection={<IconBrush size={16} aria-hidden />}
        disabled={!image || disabled}
        onClick={() => setOpened(true)}
      >
        {label}
      </Button>
      <Group gap={6} justify="space-between" wrap="nowrap" mih={24}>
        {drawn ? (
          <>
            <Group gap={6} wrap="nowrap">
              <Badge variant="light" color="teal" data-testid="mask-state">
                Mask drawn
              </Badge>
              <Text size="xs" c="dimmed" data-testid="mask-coverage">
                {formatCoverage(coverage)}
              </Text>
            </Group>
            <RemoveButton
              label="Clear the mask"
              size="sm"
              onClick={() => onChange(null)}
              disabled={disabled}
            />
          </>
        ) : (
          <Text size="xs" c="dimmed" data-testid="mask-state">
            {image ? "No mask drawn yet." : "Upload an image to draw a mask."}
          </Text>
        )}
      </Group>
      {image ? (
        <MaskEditor
          opened={opened}
          title={label}
          imageUrl={image.url}
          imageWidth={image.width}
          imageHeight={image.height}
          initialMask={mask?.mask ?? null}
          onDone={done}
          onClose={() => setOpened(false)}
        />
      ) : null}
    </Stack>
  );
}
