import { spawn } from "node:child_process";
import { AUDIO_MEASURING_UNAVAILABLE } from "@prism/contract";
import { AppError } from "../../errors";

/**
 * The playable length of an uploaded audio file, measured from its audio data and never from what the
 * container says about itself: a WAV `fact` chunk, an MP3 Xing/VBRI frame count, a FLAC STREAMINFO
 * sample count and an Ogg page's granule position are all written by whoever made the file, and a
 * caller billed per minute has every reason to make them small.
 *
 * - PCM WAV (integer or float samples): the bytes actually present in the `data` chunk divided by the
 *   frame size and the sample rate. That is exactly what a player plays; nothing is decoded.
 * - Everything else (MP3, Ogg Vorbis/Opus, FLAC, compressed WAV): decoded by ffmpeg to 8 kHz mono PCM
 *   whose bytes are counted, so only frames that really decode count. Decoding stops a second past the
 *   limit, so a long file costs no more to refuse than a file at the limit.
 */

export type AudioFormat = "wav" | "mp3" | "ogg" | "flac";

const DECODE_RATE = 8_000;
const DECODED_BYTES_PER_SECOND = DECODE_RATE * 2;
/** A 20 MB file decodes in well under this on one core; a decoder stuck longer is stopped. */
const DECODE_TIMEOUT_MS = 60_000;

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** Seconds of audio, or undefined when the file does not decode. `capSeconds` bounds the work. */
export async function measureAudioSeconds(
  buffer: Buffer,
  format: AudioFormat,
  capSeconds: number,
): Promise<number | undefined> {
  if (format === "wav") {
    const pcm = pcmWavSeconds(buffer);
    if (pcm !== "compressed") return pcm;
  }
  return decodedSeconds(buffer, format, capSeconds);
}

/**
 * The length of a PCM WAV from its `fmt ` and `data` chunks, "compressed" for a WAV whose samples need
 * a decoder, undefined for a file that is not a well-formed WAV.
 */
export function pcmWavSeconds(buffer: Buffer): number | "compressed" | undefined {
  if (buffer.length < 12 || buffer.toString("latin1", 0, 4) !== "RIFF") return undefined;
  if (buffer.toString("latin1", 8, 12) !== "WAVE") return undefined;
  let format: { tag: number; channels: number; sampleRate: number; bits: number } | undefined;
  let dataBytes: number | undefined;
  let offset = 12;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString("latin1", offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      if (size < 16 || body + 16 > buffer.length) return undefined;
      let tag = buffer.readUInt16LE(body);
      if (tag === WAVE_FORMAT_EXTENSIBLE && size >= 40 && body + 26 <= buffer.length) {
        // The sub-format GUID starts with the format tag it stands for.
        tag = buffer.readUInt16LE(body + 24);
      }
      format = {
        tag,
        channels: buffer.readUInt16LE(body + 2),
        sampleRate: buffer.readUInt32LE(body + 4),
        bits: buffer.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      // The chunk's size field may claim more than was sent (or 0xFFFFFFFF for a stream): only the
      // bytes that are really there play.
      dataBytes = Math.min(size, buffer.length - body);
      break;
    }
    offset = body + size + (size % 2);
  }
  if (!format || dataBytes === undefined) return undefined;
  if (format.tag !== WAVE_FORMAT_PCM && format.tag !== WAVE_FORMAT_IEEE_FLOAT) return "compressed";
  if (format.channels < 1 || format.sampleRate < 1 || format.bits < 8 || format.bits % 8 !== 0) {
    return undefined;
  }
  const frameBytes = format.channels * (format.bits / 8);
  return Math.floor(dataBytes / frameBytes) / format.sampleRate;
}

/** Decodes with ffmpeg and counts the samples that come out (at most `capSeconds` worth). */
function decodedSeconds(
  buffer: Buffer,
  format: AudioFormat,
  capSeconds: number,
): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const decoder = spawn(
      "ffmpeg",
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostdin",
        "-f",
        format,
        "-i",
        "pipe:0",
        "-map",
        "0:a:0",
        "-t",
        String(capSeconds),
        "-ac",
        "1",
        "-ar",
        String(DECODE_RATE),
        "-f",
        "s16le",
        "pipe:1",
      ],
      { stdio: ["pipe", "pipe", "ignore"] },
    );
    let decodedBytes = 0;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      decoder.kill("SIGKILL");
    }, DECODE_TIMEOUT_MS);
    decoder.stdout.on("data", (chunk: Buffer) => {
      decodedBytes += chunk.length;
    });
    decoder.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === "ENOENT") reject(new AppError("feature-unavailable", AUDIO_MEASURING_UNAVAILABLE));
      else reject(error);
    });
    decoder.on("close", (code) => {
      clearTimeout(timer);
      // A decoder stopped half way has not measured the file; nothing decoded means an unreadable
      // file. A damaged tail (a non-zero exit after some output) counts what decoded before it, which
      // is also all the model will hear.
      if (timedOut || code === null || decodedBytes === 0) return resolve(undefined);
      resolve(decodedBytes / DECODED_BYTES_PER_SECOND);
    });
    // ffmpeg stops reading once it has decoded `capSeconds`; the rest of the input is not wanted.
    decoder.stdin.on("error", () => undefined);
    decoder.stdin.end(buffer);
  });
}
