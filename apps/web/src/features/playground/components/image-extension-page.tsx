import { Group, NumberInput, Slider, Stack, Text } from "@mantine/core";
import { imageExtensionFeature, MAX_EXTENSION_SIDE } from "@prism/contract";
import { useEffect, useState } from "react";
import {
  type ExtensionSide,
  type ExtensionSides,
  fitExtension,
  hasExtension,
  maxExtension,
  NO_EXTENSION,
  SNIPPET_EXTENSION,
  setExtension,
} from "../lib/extension-bounds";
import { type ImageSize, readImageSize } from "../lib/upload-checks";
import { PlaygroundScreen } from "./playground-screen";
import { ImageUpload } from "./playground-uploads";

const imageInput = imageExtensionFeature.inputs.files[0];

const SIDES: { side: ExtensionSide; label: string }[] = [
  { side: "top", label: "Extend Top" },
  { side: "bottom", label: "Extend Bottom" },
  { side: "left", label: "Extend Left" },
  { side: "right", label: "Extend Right" },
];

function ExtensionSlider({
  label,
  value,
  max,
  disabled,
  onChange,
}: {
  label: string;
  value: number;
  max: number;
  disabled: boolean;
  onChange: (value: number) => void;
}) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={500} id={`${label}-label`}>
          {label}
        </Text>
        <NumberInput
          size="xs"
          w={96}
          min={0}
          max={max}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="strict"
          suffix=" px"
          value={value}
          disabled={disabled}
          aria-label={`${label} (px)`}
          onChange={(next) => onChange(typeof next === "number" ? next : Number(next) || 0)}
        />
      </Group>
      <Slider
        min={0}
        max={Math.max(max, 1)}
        step={1}
        value={value}
        disabled={disabled || max === 0}
        onChange={onChange}
        label={(current) => `${current} px`}
        thumbLabel={label}
        aria-labelledby={`${label}-label`}
      />
    </Stack>
  );
}

/**
 * /playground/image-extension (Image extension): the upload, four sliders in pixels whose
 * ranges follow the image (no side of the result above 4096 px; moving one side reduces the opposite
 * one), the price note and Extend Image, which needs an image and at least one non-zero side.
 */
export function ImageExtensionPage() {
  const [image, setImage] = useState<File | null>(null);
  const [size, setSize] = useState<ImageSize | null>(null);
  const [sides, setSides] = useState<ExtensionSides>(NO_EXTENSION);

  useEffect(() => {
    if (!image) {
      setSize(null);
      return;
    }
    let current = true;
    readImageSize(image).then(
      (read) => {
        if (!current) return;
        setSize(read);
        setSides((previous) => fitExtension(previous, read));
      },
      () => {
        if (current) setSize(null);
      },
    );
    return () => {
      current = false;
    };
  }, [image]);

  const ready = image !== null && size !== null;

  return (
    <PlaygroundScreen
      feature={imageExtensionFeature}
      actionLabel="Extend Image"
      canRun={ready && hasExtension(sides)}
      buildRequest={() => ({
        files: { image: image ? [image] : [] },
        // Only "Show API Call" builds a request before a side is set (Extend Image needs one).
        body: { ...(hasExtension(sides) ? sides : SNIPPET_EXTENSION) },
      })}
      form={
        <>
          <ImageUpload input={imageInput} label="Original Image" value={image} onChange={setImage} />
          {size ? (
            <Text size="xs" c="dimmed" data-testid="extension-size">
              {`${size.width} × ${size.height} px → ${size.width + sides.left + sides.right} × ${
                size.height + sides.top + sides.bottom
              } px (max ${MAX_EXTENSION_SIDE} per side)`}
            </Text>
          ) : null}
          {SIDES.map(({ side, label }) => (
            <ExtensionSlider
              key={side}
              label={label}
              value={sides[side]}
              max={size ? maxExtension(side, size) : 0}
              disabled={!ready}
              onChange={(value) => {
                if (size) setSides((previous) => setExtension(previous, side, value, size));
              }}
            />
          ))}
        </>
      }
    />
  );
}
