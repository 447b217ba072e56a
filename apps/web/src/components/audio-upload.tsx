import "@mantine/dropzone/styles.css";
import { ActionIcon, Group, Paper, Stack, Text, ThemeIcon, Tooltip } from "@mantine/core";
import { Dropzone, type FileRejection } from "@mantine/dropzone";
import type { FileInput, TitledMessage } from "@prism/contract";
import { IconFileMusic, IconMusic, IconUpload, IconX } from "@tabler/icons-react";
import { useEffect, useMemo, useState } from "react";
import { checkAudioUpload } from "../features/playground/lib/audio-checks";
import { formatDuration } from "../features/playground/lib/transcription";
import { escapeHtml } from "../lib/html";
import { openInfoModal } from "./overlays/modals";

/** A chosen audio file with the duration the browser read from it. */
export interface ChosenAudio {
  file: File;
  durationSeconds: number;
}

export interface AudioUploadProps {
  /** The catalog's file input: accepted types, the byte limit and the duration limit come from it. */
  input: FileInput;
  label: string;
  value: ChosenAudio | null;
  onChange: (audio: ChosenAudio | null) => void;
  disabled?: boolean;
  /** Replaces the limit dialog, e.g. in tests; by default the spec's info modal is opened. */
  onRejected?: (message: TitledMessage) => void;
}

function showRejection(message: TitledMessage) {
  void openInfoModal({ title: message.title, html: escapeHtml(message.message) });
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/**
 * The playground's audio drop area (001 §2 Transcription, §5): drag and drop or click, only the first
 * file is used, and it is checked in the browser (type, 20 MB, playable, 5 minutes) before it is
 * accepted. Shows the file, its duration and a player to listen to it.
 */
export function AudioUpload({ input, label, value, onChange, disabled, onRejected }: AudioUploadProps) {
  const [checking, setChecking] = useState(false);
  const previewUrl = useMemo(() => (value ? URL.createObjectURL(value.file) : null), [value]);
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
      const check = await checkAudioUpload(file, input);
      if ("problem" in check) {
        (onRejected ?? showRejection)(check.problem);
        return;
      }
      onChange({ file, durationSeconds: check.durationSeconds });
    } finally {
      setChecking(false);
    }
  };

  const formats = input.acceptedExtensions.map((extension) => extension.slice(1).toUpperCase()).join(", ");
  const minutes = input.maxSeconds ? Math.round(input.maxSeconds / 60) : null;
  const hint = `${formats} · up to ${Math.round(input.maxBytes / 1_048_576)} MB${
    minutes ? ` and ${minutes} minutes` : ""
  }`;

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {value && previewUrl ? (
        <Paper withBorder radius="md" p="sm">
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <ThemeIcon variant="light" radius="md" size={38}>
                  <IconFileMusic size={20} aria-hidden />
                </ThemeIcon>
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} truncate>
                    {value.file.name}
                  </Text>
                  <Text size="xs" c="dimmed" data-testid="audio-duration">
                    Duration: {formatDuration(value.durationSeconds)} · {formatMegabytes(value.file.size)}
                  </Text>
                </Stack>
              </Group>
              <Tooltip label="Remove audio file">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  onClick={() => onChange(null)}
                  disabled={disabled}
                  aria-label="Remove audio file"
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
            {/* biome-ignore lint/a11y/useMediaCaption: a preview of the user's own recording has no captions. */}
            <audio
              controls
              src={previewUrl}
              preload="metadata"
              style={{ width: "100%" }}
              aria-label="Audio preview"
            />
          </Stack>
        </Paper>
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
              <IconMusic size={36} stroke={1.5} color="var(--mantine-color-dimmed)" aria-hidden />
            </Dropzone.Idle>
            <Text size="sm" fw={500}>
              Drag an audio file here or click to select one
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
