import { Group, Paper, Stack, Text, ThemeIcon } from "@mantine/core";
import { BYTES_PER_MB, type FileInput, type TitledMessage } from "@prism/contract";
import { IconFileMusic, IconMusic } from "@tabler/icons-react";
import { formatDuration } from "../lib/format";
import { formatUploadHint, RemoveButton, UploadField, useObjectUrl, useUploadCheck } from "./upload-dropzone";

/** A chosen audio file with the duration the browser read from it. */
export interface ChosenAudio {
  file: File;
  durationSeconds: number;
}

/** The caller's verdict on a dropped audio file: a refusal to show, or the duration it read. */
export type AudioCheckResult = { problem: TitledMessage } | { durationSeconds: number };

export interface AudioUploadProps {
  /** The catalog's file input: accepted types, the byte limit and the duration limit come from it. */
  input: FileInput;
  /** The caller's checks of a dropped file against `input`. */
  check: (file: File, input: FileInput) => Promise<AudioCheckResult>;
  label: string;
  value: ChosenAudio | null;
  onChange: (audio: ChosenAudio | null) => void;
  disabled?: boolean;
  /** Replaces the limit dialog, e.g. in tests; by default the spec's info modal is opened. */
  onRejected?: (message: TitledMessage) => void;
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / BYTES_PER_MB).toFixed(1)} MB`;
}

/**
 * The playground's audio drop area (Transcription): drag and drop or click, only the first
 * file is used, and it is checked in the browser (type, 20 MB, playable, 5 minutes) before it is
 * accepted. Shows the file, its duration and a player to listen to it.
 */
export function AudioUpload(props: AudioUploadProps) {
  const { input, check, label, value, onChange, disabled, onRejected } = props;
  const previewUrl = useObjectUrl(value?.file ?? null);
  const { checking, accept } = useUploadCheck(
    async (file) => {
      const verdict = await check(file, input);
      return "problem" in verdict
        ? verdict
        : { accepted: { file, durationSeconds: verdict.durationSeconds } };
    },
    onChange,
    onRejected,
  );

  const hint = formatUploadHint(input);

  return (
    <UploadField
      preview={
        value && previewUrl ? (
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
                <RemoveButton label="Remove audio file" onClick={() => onChange(null)} disabled={disabled} />
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
        ) : null
      }
      label={label}
      accept={input.acceptedMimeTypes}
      onFiles={(files) => void accept(files[0])}
      loading={checking}
      disabled={disabled}
      idleIcon={IconMusic}
      title="Drag an audio file here or click to select one"
      hint={hint}
    />
  );
}
