import "@mantine/dropzone/styles.css";
import { ActionIcon, Stack, Text, Tooltip } from "@mantine/core";
import { Dropzone, type FileRejection } from "@mantine/dropzone";
import { BYTES_PER_MB, type FileInput, PIXELS_PER_MEGAPIXEL, type TitledMessage } from "@prism/contract";
import { IconUpload, IconX, type TablerIcon } from "@tabler/icons-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { escapeHtml } from "../lib/html";
import { openInfoModal } from "./overlays/modals";

/** The upload limits line of a file input, e.g. "JPG, PNG · up to 30 MB and 16 megapixels". */
export function formatUploadHint(input: FileInput): string {
  const extraLimit = input.maxPixels
    ? `${Math.round(input.maxPixels / PIXELS_PER_MEGAPIXEL)} megapixels`
    : input.maxSeconds
      ? `${Math.round(input.maxSeconds / 60)} minutes`
      : null;
  const formats = input.acceptedExtensions
    .map((extension) => extension.replace(/^\./, "").toUpperCase())
    .join(", ");
  const megabytes = Math.round(input.maxBytes / BYTES_PER_MB);
  return `${formats} · up to ${megabytes} MB${extraLimit ? ` and ${extraLimit}` : ""}`;
}

/** The spec's limit dialog for a refused upload. */
export function showUploadRejection(message: TitledMessage) {
  void openInfoModal({ title: message.title, html: escapeHtml(message.message) });
}

/** An object URL for the chosen file, revoked when the file changes or the component goes away. */
export function useObjectUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

/** A browser-side check of a chosen file: the reason it is refused, or what the upload keeps. */
export type UploadCheck<T> = (file: File) => Promise<{ problem: TitledMessage } | { accepted: T }>;

/**
 * Runs the check on the first chosen file before it is accepted, with the busy flag the drop area
 * shows meanwhile; a refused file opens the limit dialog unless `onRejected` replaces it.
 */
export function useUploadCheck<T>(
  check: UploadCheck<T>,
  onAccepted: (value: T) => void,
  onRejected: (message: TitledMessage) => void = showUploadRejection,
) {
  const [checking, setChecking] = useState(false);
  const accept = async (file: File | undefined) => {
    if (!file) return;
    setChecking(true);
    try {
      const result = await check(file);
      if ("problem" in result) {
        onRejected(result.problem);
        return;
      }
      onAccepted(result.accepted);
    } finally {
      setChecking(false);
    }
  };
  return { checking, accept };
}

export interface UploadDropzoneProps {
  /** The drop area's accessible name. */
  label: string;
  accept: readonly string[];
  /**
   * The dropped files, those the browser's type filter refused included: the caller's own checks run on
   * them too, so a refusal is explained by the same dialog as any other limit.
   */
  onFiles: (files: File[]) => void;
  multiple?: boolean;
  loading?: boolean;
  disabled?: boolean;
  /** The icon shown while nothing is dragged over the area. */
  idleIcon: TablerIcon;
  title: string;
  /** The accepted formats and limits, under the title. */
  hint: string;
  /** A smaller icon and less padding, for a drop area that sits among other controls. */
  compact?: boolean;
}

/**
 * The shared drop area of the uploads: drag and drop or click, an icon that follows the drag
 * (accept, reject, idle), the title line and the limits hint.
 */
export function UploadDropzone({
  label,
  accept,
  onFiles,
  multiple = false,
  loading,
  disabled,
  idleIcon: IdleIcon,
  title,
  hint,
  compact = false,
}: UploadDropzoneProps) {
  const iconSize = compact ? 32 : 36;
  return (
    <Dropzone
      onDrop={(files: File[]) => onFiles(files)}
      onReject={(rejections: FileRejection[]) => onFiles(rejections.map((entry) => entry.file))}
      multiple={multiple}
      loading={loading}
      disabled={disabled}
      accept={[...accept]}
      aria-label={label}
      radius="md"
    >
      <Stack align="center" gap={6} py={compact ? "md" : "lg"} style={{ pointerEvents: "none" }} ta="center">
        <Dropzone.Accept>
          <IconUpload size={iconSize} stroke={1.5} color="var(--mantine-primary-color-filled)" aria-hidden />
        </Dropzone.Accept>
        <Dropzone.Reject>
          <IconX size={iconSize} stroke={1.5} color="var(--mantine-color-red-6)" aria-hidden />
        </Dropzone.Reject>
        <Dropzone.Idle>
          <IdleIcon size={iconSize} stroke={1.5} color="var(--mantine-color-dimmed)" aria-hidden />
        </Dropzone.Idle>
        <Text size="sm" fw={500}>
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      </Stack>
    </Dropzone>
  );
}

export interface UploadFieldProps extends UploadDropzoneProps {
  /** What was chosen, shown instead of the drop area; null while nothing is. */
  preview: ReactNode;
}

/** A labelled upload: the label over either the chosen file's preview or the drop area. */
export function UploadField({ preview, ...dropzone }: UploadFieldProps) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {dropzone.label}
      </Text>
      {preview ?? <UploadDropzone {...dropzone} />}
    </Stack>
  );
}

export interface RemoveButtonProps {
  /** The tooltip and the accessible name, e.g. "Remove image". */
  label: string;
  onClick: () => void;
  disabled?: boolean;
  size?: "sm" | "md";
}

/** The subtle × beside a chosen file (or a drawn mask) that clears it. */
export function RemoveButton({ label, onClick, disabled, size = "md" }: RemoveButtonProps) {
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size={size === "sm" ? "sm" : undefined}
        onClick={onClick}
        disabled={disabled}
        aria-label={label}
      >
        <IconX size={size === "sm" ? 14 : 16} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
