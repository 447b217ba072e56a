import "@mantine/dropzone/styles.css";
import { ActionIcon, Box, Group, Image, Stack, Text, Tooltip } from "@mantine/core";
import { Dropzone, type FileRejection } from "@mantine/dropzone";
import type { FileInput, TitledMessage } from "@prism/contract";
import { IconPhoto, IconUpload, IconX } from "@tabler/icons-react";
import { useEffect, useMemo, useState } from "react";
import { checkImageUpload } from "../features/playground/lib/upload-checks";
import { escapeHtml } from "../lib/html";
import { openInfoModal } from "./overlays/modals";

export interface ImageUploadProps {
  /** The catalog's file input: accepted types and the byte and pixel limits come from it. */
  input: FileInput;
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
  /** Replaces the limit dialog, e.g. in tests; by default the spec's info modal is opened. */
  onRejected?: (message: TitledMessage) => void;
}

function formatList(extensions: readonly string[]): string {
  return extensions.map((extension) => extension.replace(/^\./, "").toUpperCase()).join(", ");
}

function showRejection(message: TitledMessage) {
  void openInfoModal({ title: message.title, html: escapeHtml(message.message) });
}

/**
 * The playground's image drop area (001 §2, §5): drag and drop or click, only the first file is used,
 * and the file is checked in the browser (type, 30 MB, the input's pixel limit, readability) before it
 * is accepted. Shows a preview of the chosen image with a button to clear it.
 */
export function ImageUpload({ input, label, value, onChange, disabled, onRejected }: ImageUploadProps) {
  const [checking, setChecking] = useState(false);
  const previewUrl = useMemo(() => (value ? URL.createObjectURL(value) : null), [value]);
  useEffect(
    () => () => {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
    },
    [previewUrl],
  );

  const accept = async (file: File | undefined) => {
    if (!file) return;
    setChecking(true);
    try {
      const problem = await checkImageUpload(file, input);
      if (problem) {
        (onRejected ?? showRejection)(problem);
        return;
      }
      onChange(file);
    } finally {
      setChecking(false);
    }
  };

  const megapixels = input.maxPixels ? Math.round(input.maxPixels / 1_048_576) : null;
  const hint = `${formatList(input.acceptedExtensions)} · up to ${Math.round(input.maxBytes / 1_048_576)} MB${
    megapixels ? ` and ${megapixels} megapixels` : ""
  }`;

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {value && previewUrl ? (
        <Box
          pos="relative"
          style={{
            borderRadius: "var(--mantine-radius-md)",
            border: "1px solid var(--mantine-color-default-border)",
            background:
              "repeating-conic-gradient(var(--mantine-color-gray-1) 0% 25%, transparent 0% 50%) 50% / 16px 16px",
            overflow: "hidden",
          }}
        >
          <Image src={previewUrl} alt={`${label}: ${value.name}`} mah={260} fit="contain" />
          <Group
            justify="space-between"
            px="sm"
            py={6}
            wrap="nowrap"
            style={{
              borderTop: "1px solid var(--mantine-color-default-border)",
              background: "var(--mantine-color-body)",
            }}
          >
            <Text size="xs" c="dimmed" truncate>
              {value.name}
            </Text>
            <Tooltip label="Remove image">
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                onClick={() => onChange(null)}
                disabled={disabled}
                aria-label="Remove image"
              >
                <IconX size={14} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Box>
      ) : (
        <Dropzone
          onDrop={(files: File[]) => void accept(files[0])}
          onReject={(rejections: FileRejection[]) => void accept(rejections[0]?.file)}
          multiple={false}
          loading={checking}
          disabled={disabled}
          accept={[...input.acceptedMimeTypes]}
          aria-label={label}
          radius="md"
        >
          <Stack align="center" gap={6} py="lg" style={{ pointerEvents: "none" }} ta="center">
            <Dropzone.Accept>
              <IconUpload size={36} stroke={1.5} color="var(--mantine-primary-color-filled)" aria-hidden />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={36} stroke={1.5} color="var(--mantine-color-red-6)" aria-hidden />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconPhoto size={36} stroke={1.5} color="var(--mantine-color-dimmed)" aria-hidden />
            </Dropzone.Idle>
            <Text size="sm" fw={500}>
              Drag an image here or click to select one
            </Text>
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          </Stack>
        </Dropzone>
      )}
    </Stack>
  );
}
