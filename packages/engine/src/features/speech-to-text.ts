import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { MAX_AUDIO_SECONDS, NO_SPEECH_FOUND } from "@prism/contract";
import { EngineError } from "../errors";
import { TRANSCRIPTION_LANGUAGES } from "../types";
import type { Feature } from "./feature";

const SAMPLE_RATE = 16_000;
const DECODER = "pocketsphinx_continuous";
const CONVERTER = "ffmpeg";
/** Debian's pocketsphinx-en-us puts the acoustic model, dictionary and language model here. */
const MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

export interface TranscriptionSegment {
  start: number;
  end: number;
  text: string;
}

export interface TranscriptionBody {
  language: string;
  duration: number;
  segments: TranscriptionSegment[];
}

function findBinary(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

function run(
  command: string,
  args: string[],
  stdin?: Uint8Array,
): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const errorText = Buffer.concat(stderr).toString("utf8");
      if (code === 0) {
        resolve({ stdout: Buffer.concat(stdout), stderr: errorText });
      } else {
        reject(new Error(`${command} exited with ${code}: ${errorText.slice(-500)}`));
      }
    });
    child.stdin.on("error", () => {
      // The converter may stop reading early on a broken file; its exit code reports that.
    });
    child.stdin.end(stdin);
  });
}

/** Recognises the container by its magic bytes; the server already checked them against the allowed types. */
function audioFormat(bytes: Uint8Array): string | undefined {
  const text = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString("latin1");
  if (text(0, 4) === "RIFF" && text(8, 12) === "WAVE") return "wav";
  if (text(0, 4) === "OggS") return "ogg";
  if (text(0, 4) === "fLaC") return "flac";
  if (text(0, 3) === "ID3" || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return "mp3";
  return undefined;
}

async function audioDuration(bytes: Uint8Array): Promise<number | undefined> {
  const { parseBuffer } = await import("music-metadata");
  try {
    const metadata = await parseBuffer(bytes, undefined, { duration: true, skipCovers: true });
    return metadata.format.duration;
  } catch {
    return undefined;
  }
}

/**
 * Parses `pocketsphinx_continuous -time yes`: each utterance prints its text, then one line per word
 * with start and end seconds and a confidence; fillers (<s>, </s>, <sil>, [NOISE]) carry no words.
 */
export function parseSphinxOutput(output: string): TranscriptionSegment[] {
  const segments: TranscriptionSegment[] = [];
  let words: { word: string; start: number; end: number }[] = [];
  const flush = () => {
    const spoken = words.filter((w) => !/^(<.*>|\[.*\])$/.test(w.word));
    if (spoken.length > 0) {
      segments.push({
        start: spoken[0]!.start,
        end: spoken[spoken.length - 1]!.end,
        text: spoken.map((w) => w.word.replace(/\(\d+\)$/, "")).join(" "),
      });
    }
    words = [];
  };
  for (const line of output.split("\n")) {
    const parts = line.trim().split(/\s+/);
    if (parts.length === 4 && parts.slice(1).every((p) => Number.isFinite(Number(p)))) {
      words.push({ word: parts[0]!, start: Number(parts[1]), end: Number(parts[2]) });
      if (parts[0] === "</s>") flush();
    }
  }
  flush();
  return segments;
}

export const speechToText: Feature<"speech-to-text"> = {
  id: "speech-to-text",
  async checkAvailability() {
    const missing: string[] = [];
    if (!findBinary(DECODER)) missing.push(`${DECODER} (Debian package pocketsphinx)`);
    if (!existsSync(join(MODEL_DIR, "en-us.lm.bin")))
      missing.push("the US English model (pocketsphinx-en-us)");
    if (!findBinary(CONVERTER)) missing.push(`${CONVERTER} (Debian package ffmpeg)`);
    return missing.length === 0
      ? { available: true }
      : { available: false, reason: `Speech to text needs ${missing.join(", ")}, which is not installed.` };
  },
  async run(input) {
    const language = input.language ?? "en";
    if (!(TRANSCRIPTION_LANGUAGES as readonly string[]).includes(language)) {
      throw new EngineError("unavailable", `The builtin engine transcribes English only, not "${language}".`);
    }
    const format = audioFormat(input.audio);
    if (!format) {
      throw new EngineError("invalid-input", "The audio must be an MP3, WAV, OGG or FLAC file.");
    }
    const duration = await audioDuration(input.audio);
    if (duration !== undefined && duration > MAX_AUDIO_SECONDS) {
      throw new EngineError("invalid-input", `The audio is longer than ${MAX_AUDIO_SECONDS} seconds.`);
    }
    let pcm: Buffer;
    try {
      const args = ["-hide_banner", "-loglevel", "error", "-f", format, "-i", "pipe:0"];
      args.push(
        "-t",
        String(MAX_AUDIO_SECONDS),
        "-ac",
        "1",
        "-ar",
        String(SAMPLE_RATE),
        "-f",
        "s16le",
        "pipe:1",
      );
      pcm = (await run(CONVERTER, args, input.audio)).stdout;
    } catch (error) {
      throw new EngineError("invalid-input", "The audio could not be decoded.", { cause: error });
    }
    const dir = await mkdtemp(join(tmpdir(), "prism-stt-"));
    try {
      const file = join(dir, "audio.raw");
      await writeFile(file, pcm);
      const { stdout } = await run(DECODER, [
        "-infile",
        file,
        "-time",
        "yes",
        "-samprate",
        String(SAMPLE_RATE),
        "-hmm",
        join(MODEL_DIR, "en-us"),
        "-lm",
        join(MODEL_DIR, "en-us.lm.bin"),
        "-dict",
        join(MODEL_DIR, "cmudict-en-us.dict"),
        "-logfn",
        "/dev/null",
      ]);
      const segments = parseSphinxOutput(stdout.toString("utf8"));
      // Silence, noise or music: an empty transcript is not a result to charge for (issue 27).
      if (segments.length === 0) throw new EngineError("invalid-input", NO_SPEECH_FOUND);
      const body: TranscriptionBody = {
        language,
        duration: duration ?? pcm.length / 2 / SAMPLE_RATE,
        segments,
      };
      return { kind: "json", body };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
