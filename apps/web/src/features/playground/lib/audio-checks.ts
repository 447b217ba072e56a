import {
  AUDIO_TOO_LARGE,
  AUDIO_TOO_LONG,
  AUDIO_TYPE_NOT_ACCEPTED,
  AUDIO_UNREADABLE,
  type FileInput,
} from "@prism/contract";
import type { AudioCheckResult } from "../../../components/audio-upload";

/** Reads how long an audio file plays by loading its metadata in an <audio> element. */
export function readAudioDuration(file: Blob): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const audio = document.createElement("audio");
    audio.preload = "metadata";
    const finish = (outcome: () => void) => {
      audio.removeAttribute("src");
      audio.load();
      URL.revokeObjectURL(url);
      outcome();
    };
    audio.onloadedmetadata = () => {
      const seconds = audio.duration;
      finish(() =>
        Number.isFinite(seconds) && seconds > 0 ? resolve(seconds) : reject(new Error("no duration")),
      );
    };
    audio.onerror = () => finish(() => reject(new Error("unreadable audio")));
    audio.src = url;
  });
}

function hasAcceptedType(file: File, input: FileInput): boolean {
  const name = file.name.toLowerCase();
  if (input.acceptedExtensions.some((extension) => name.endsWith(extension.toLowerCase()))) return true;
  return file.type !== "" && input.acceptedMimeTypes.includes(file.type);
}

export type AudioCheck = AudioCheckResult;

/**
 * The browser-side audio checks of the spec: a file of another type or one the browser cannot play
 * is unreadable; then the 20 MB limit (before decoding); then the 5 minute limit. On success gives the
 * duration, which the screen shows and prices. The server checks the same limits again.
 */
export async function checkAudioUpload(
  file: File,
  input: FileInput,
  readDuration: (file: Blob) => Promise<number> = readAudioDuration,
): Promise<AudioCheck> {
  if (!hasAcceptedType(file, input)) return { problem: AUDIO_TYPE_NOT_ACCEPTED };
  if (file.size > input.maxBytes) return { problem: AUDIO_TOO_LARGE };
  let durationSeconds: number;
  try {
    durationSeconds = await readDuration(file);
  } catch {
    return { problem: AUDIO_UNREADABLE };
  }
  if (input.maxSeconds !== undefined && durationSeconds > input.maxSeconds)
    return { problem: AUDIO_TOO_LONG };
  return { durationSeconds };
}
