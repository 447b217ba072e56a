import { AUDIO_TOO_LARGE, AUDIO_TOO_LONG, AUDIO_UNREADABLE, transcriptionFeature } from "@prism/contract";
import { describe, expect, it } from "vitest";
import { checkAudioUpload } from "./audio-checks";

const audioInput = transcriptionFeature.inputs.files[0];

function fileOf(name: string, type: string, bytes = 10): File {
  const file = new File([new Uint8Array(Math.min(bytes, 16))], name, { type });
  if (bytes > 16) Object.defineProperty(file, "size", { value: bytes });
  return file;
}

const lasting = (seconds: number) => async () => seconds;
const unreadable = async () => {
  throw new Error("broken");
};

describe("checkAudioUpload", () => {
  it("accepts a playable file within the limits and gives its duration", async () => {
    expect(await checkAudioUpload(fileOf("a.wav", "audio/wav"), audioInput, lasting(2.8))).toEqual({
      durationSeconds: 2.8,
    });
    expect(await checkAudioUpload(fileOf("a.flac", ""), audioInput, lasting(300))).toEqual({
      durationSeconds: 300,
    });
  });

  it("refuses more than 20 MB with Audio File Too Large, before reading it", async () => {
    const check = await checkAudioUpload(fileOf("a.mp3", "audio/mpeg", 20_971_521), audioInput, unreadable);
    expect(check).toEqual({ problem: AUDIO_TOO_LARGE });
    expect(AUDIO_TOO_LARGE.title).toBe("Audio File Too Large");
  });

  it("refuses more than 5 minutes with Audio File Too Long", async () => {
    const check = await checkAudioUpload(fileOf("a.ogg", "audio/ogg"), audioInput, lasting(300.5));
    expect(check).toEqual({ problem: AUDIO_TOO_LONG });
    expect(AUDIO_TOO_LONG.title).toBe("Audio File Too Long");
  });

  it("reports a file the browser cannot play as Error Reading Audio File", async () => {
    expect(await checkAudioUpload(fileOf("a.mp3", "audio/mpeg"), audioInput, unreadable)).toEqual({
      problem: AUDIO_UNREADABLE,
    });
    expect(AUDIO_UNREADABLE.title).toBe("Error Reading Audio File");
  });

  it("refuses a file of another type naming the accepted audio formats", async () => {
    expect(await checkAudioUpload(fileOf("a.m4a", "audio/mp4"), audioInput, lasting(3))).toEqual({
      problem: {
        title: "File Type Not Accepted",
        message: "Only .mp3, .wav, .ogg and .flac audio files are accepted.",
      },
    });
  });
});
