import { NO_SPEECH_FOUND } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pcmToWav, readFixture } from "../../test/helpers";
import { createEngine, type Engine } from "../engine";
import { parseSphinxOutput, speechToText, type TranscriptionBody } from "./speech-to-text";

const available = (await speechToText.checkAvailability()).available;
let engine: Engine;
beforeAll(() => {
  engine = createEngine({ workers: 1 });
});
afterAll(() => engine.close());

describe("speech to text", () => {
  it("transcribes English speech into timed segments", async () => {
    // `npm test` installs Debian's pocketsphinx, pocketsphinx-en-us and ffmpeg (scripts/ensure-system-packages.mjs).
    expect(available, "speech to text needs Debian's pocketsphinx, pocketsphinx-en-us and ffmpeg").toBe(true);
    // goforward.raw: pocketsphinx test data, "go forward ten meters", 16 kHz 16-bit mono PCM, BSD-2.
    const audio = pcmToWav(await readFixture("audio/goforward.raw"), 16_000);
    const output = await engine.run("speech-to-text", { audio, language: "en" });
    expect(output.kind).toBe("json");
    if (output.kind !== "json") return;
    const { segments, language, duration } = output.body as TranscriptionBody;
    expect(language).toBe("en");
    expect(duration).toBeCloseTo(89_160 / 2 / 16_000, 1);
    const text = segments.map((s) => s.text).join(" ");
    expect(text).toContain("go forward");
    expect(text).toContain("meters");
    expect(segments[0]!.start).toBeGreaterThanOrEqual(0);
    expect(segments[0]!.end).toBeGreaterThan(segments[0]!.start);
  });

  it("refuses audio with no speech instead of returning an empty transcript (issue 27)", async () => {
    expect(available, "speech to text needs Debian's pocketsphinx, pocketsphinx-en-us and ffmpeg").toBe(true);
    // Two seconds of silence: a well-formed WAV in which there is nothing to transcribe.
    const audio = pcmToWav(Buffer.alloc(2 * 16_000 * 2), 16_000);
    await expect(engine.run("speech-to-text", { audio, language: "en" })).rejects.toMatchObject({
      code: "invalid-input",
      message: NO_SPEECH_FOUND,
    });
  });

  it("refuses languages other than English", async () => {
    const audio = pcmToWav(Buffer.alloc(3200), 16_000);
    await expect(engine.run("speech-to-text", { audio, language: "de" })).rejects.toMatchObject({
      code: "unavailable",
    });
  });

  it("refuses bytes that are not a supported audio file", async () => {
    await expect(
      engine.run("speech-to-text", { audio: Buffer.from("not audio at all") }),
    ).rejects.toMatchObject({
      code: "invalid-input",
    });
  });

  it("reports itself unavailable, naming the Debian packages, when the binaries are missing", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const report = await speechToText.checkAvailability();
      expect(report.available).toBe(false);
      expect(report.reason).toContain("pocketsphinx");
      expect(report.reason).toContain("ffmpeg");
    } finally {
      process.env.PATH = path;
    }
  });

  it("reads pocketsphinx's word timings into segments without fillers", () => {
    const output =
      "go forward\n<s> 0.000 0.240 1.0\ngo 0.460 0.630 0.99\nforward(2) 0.640 1.160 0.99\n</s> 1.2 1.3 1.0\n";
    expect(parseSphinxOutput(output)).toEqual([{ start: 0.46, end: 1.16, text: "go forward" }]);
  });
});
