import { Box, Group, Image, Text } from "@mantine/core";
import type { FileInput, TitledMessage } from "@prism/contract";
import { IconPhoto } from "@tabler/icons-react";
import { formatUploadHint, RemoveButton, UploadField, useObjectUrl, useUploadCheck } from "./upload-dropzone";

export interface ImageUploadProps {
  /** The catalog's file input: accepted types and the byte and pixel limits come from it. */
  input: FileInput;
  /** The caller's checks of a dropped file against `input`: a refusal to show, or null to accept it. */
  check: (file: File, input: FileInput) => Promise<TitledMessage | null>;
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
  /** Replaces the limit dialog, e.g. in tests; by default the spec's info modal is opened. */
  onRejected?: (message: TitledMessage) => void;
}

/**
 * The playground's image drop area: drag and drop or click, only the first file is used,
 * and the file is checked in the browser (type, 30 MB, the input's pixel limit, readability) before it
 * is accepted. Shows a preview of the chosen image with a button to clear it.
 */
export function ImageUpload(props: ImageUploadProps) {
  const { input, check, label, value, onChange, disabled, onRejected } = props;
  const previewUrl = useObjectUrl(value);
  const { checking, accept } = useUploadCheck(
    async (file) => {
      const problem = await check(file, input);
      return problem ? { problem } : { accepted: file };
    },
    onChange,
    onRejected,
  );

  const hint = formatUploadHint(input);

  return (
    <UploadField
      preview={
        value && previewUrl ? (
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
              <RemoveButton
                label="Remove image"
                size="sm"
                onClick={() => onChange(null)}
                disabled={disabled}
              />
            </Group>
          </Box>
        ) : null
      }
      label={label}
      accept={input.acceptedMimeTypes}
      onFiles={(files) => void accept(files[0])}
      loading={checking}
      disabled={disabled}
      idleIcon={IconPhoto}
      title="Drag an image here or click to select one"
      hint={hint}
    />
  );
}
