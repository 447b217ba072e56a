import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Audio files whose metadata lies about their length, as a caller trying to be billed less would
 * craft them. The data is silence; only the claimed length differs from the real one.
 */

function chunk(id: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, "latin1");
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, data.length % 2 === 1 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/**
 * A 16-bit mono PCM WAV holding `dataSeconds` of audio whose `fact` chunk claims `claimedSeconds`
 * (readers that trust `fact` report the claimed length).
 */
export function makeWavWithLyingFact(dataSeconds: number, claimedSeconds: number, sampleRate = 8_000) {
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0);
  fmt.writeUInt16LE(1, 2);
  fmt.writeUInt32LE(sampleRate, 4);
  fmt.writeUInt32LE(sampleRate * 2, 8);
  fmt.writeUInt16LE(2, 12);
  fmt.writeUInt16LE(16, 14);
  const fact = Buffer.alloc(4);
  fact.writeUInt32LE(claimedSeconds * sampleRate, 0);
  const body = Buffer.concat([
    Buffer.from("WAVE", "latin1"),
    chunk("fmt ", fmt),
    chunk("fact", fact),
    chunk("data", Buffer.alloc(dataSeconds * sampleRate * 2)),
  ]);
  return Buffer.concat([Buffer.from("RIFF", "latin1"), uint32le(body.length), body]);
}

function uint32le(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value, 0);
  return buffer;
}

/**
 * A FLAC file of `dataSeconds` of silence (encoded by ffmpeg) whose STREAMINFO block claims
 * `claimedSeconds` of samples.
 */
export function makeFlacWithLyingStreamInfo(dataSeconds: number, claimedSeconds: number, sampleRate = 8_000) {
  const dir = mkdtempSync(join(tmpdir(), "prism-flac-"));
  try {
    const path = join(dir, "silence.flac");
    execFileSync("ffmpeg", [
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      `anullsrc=r=${sampleRate}:cl=mono`,
      "-t",
      String(dataSeconds),
      "-c:a",
      "flac",
      path,
    ]);
    const flac = readFileSync(path);
    // "fLaC", the 4-byte block header, then STREAMINFO: its bytes 10..17 hold sample rate (20 bits),
    // channels (3), bits per sample (5) and the total sample count (36).
    const packed = flac.readBigUInt64BE(18);
    const totalMask = (1n << 36n) - 1n;
    flac.writeBigUInt64BE((packed & ~totalMask) | BigInt(claimedSeconds * sampleRate), 18);
    return flac;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
