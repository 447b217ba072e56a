import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pcmToWav } from "@prism/engine/wav";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { type Me, post, signUpOwner } from "./funded-owner";
import { failNextModelCall, lastModelCall, portraitJpeg } from "./model-server-control";
import {
  CHARGED_PRICE_LINE,
  closeDialog,
  deleteOnlyRow,
  EMPTY_HISTORY,
  historyRows,
  lastStoredBody,
  listTrainedClones,
  openFundedPlayground,
  postFeatureForm,
  storedRequests,
  waitForDialog,
} from "./playground-helpers";

const TRAINING_LOCKED = "AI Clone training is available after your organization's first deposit.";
const TRANSCRIPTION_ERROR = "There was an error processing the transcription.";

// ---------------------------------------------------------------------------------------------------
// Test media.
// ---------------------------------------------------------------------------------------------------

type Upload = { name: string; mimeType: string; buffer: Buffer };

/** Training photos of varied sizes and orientations: portraits, landscapes, a small square PNG. */
async function trainingPhotos(count: number, offset = 0): Promise<Upload[]> {
  const photos: Upload[] = [];
  for (let index = offset; index < offset + count; index += 1) {
    const shape = index % 3;
    if (shape === 0) {
      photos.push({
        name: `portrait-${index}.jpg`,
        mimeType: "image/jpeg",
        buffer: await portraitJpeg(index),
      });
    } else if (shape === 1) {
      photos.push({
        name: `landscape-${index}.jpg`,
        mimeType: "image/jpeg",
        buffer: await portraitJpeg(index, 1600, 1200),
      });
    } else {
      photos.push({
        name: `square-${index}.png`,
        mimeType: "image/png",
        buffer: await sharp(await portraitJpeg(index, 600, 600))
          .png()
          .toBuffer(),
      });
    }
  }
  return photos;
}

/** "go forward ten meters", 16 kHz 16-bit mono (pocketsphinx test data, see the repository's fixtures/README.md). */
const goForwardWav = () =>
  pcmToWav(readFileSync(resolve(import.meta.dirname, "../../../fixtures/audio/goforward.raw")), 16_000);

/** A quiet tone of `seconds` at 8 kHz. */
function toneWav(seconds: number): Buffer {
  const sampleRate = 8_000;
  const pcm = Buffer.alloc(Math.round(seconds * sampleRate) * 2);
  for (let index = 0; index < pcm.length / 2; index += 1) {
    pcm.writeInt16LE(Math.round(2_000 * Math.sin((2 * Math.PI * 440 * index) / sampleRate)), index * 2);
  }
  return pcmToWav(pcm, sampleRate);
}

// ---------------------------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------------------------

async function balanceOf(page: Page, baseUrl: string): Promise<number> {
  return (await post<Me>(page, baseUrl, "/v1/users/me")).organizations[0]?.balance ?? Number.NaN;
}

/** Waits for the dialog titled `title` and checks its text holds `message`. */
async function expectInfoDialog(page: Page, title: string, message: string) {
  const dialog = await waitForDialog(page, title);
  expect(await dialog.textContent()).toContain(message);
  return dialog;
}

let projectId = "";

describe("playground: AI Clone training and speech to text", () => {
  let session: BrowserSession;

  beforeAll(async () => {
    ({ session, projectId } = await openFundedPlayground({
      firstName: "Tess",
      lastName: "Trainer",
      label: "training-speech",
    }));
  });

  afterAll(async () => {
    await session?.close();
  });

  it("locks training for an organization until its first deposit", async () => {
    const fresh = await openBrowser();
    try {
      const { page, baseUrl } = fresh;
      await signUpOwner(page, baseUrl, { firstName: "Nora", lastName: "Newcomer", label: "unfunded" });
      await skipWelcomePopup(page);

      await page.goto("/playground/pegasus-training");
      await page.getByRole("heading", { name: "AI Clone Training" }).waitFor();
      const lock = page.getByTestId("training-locked");
      await lock.getByText(TRAINING_LOCKED).waitFor();
      const link = lock.getByRole("link", { name: "Add funds in Payments" });
      expect(await link.getAttribute("href")).toBe("/organization/payments");

      await page.locator("input[type=file]").setInputFiles(await trainingPhotos(10));
      await expect.poll(() => page.getByTestId("photo-count").textContent()).toBe("10 / 15");
      await page.getByLabel("Name").fill("Locked Clone");
      expect(await page.getByRole("button", { name: "Start Training" }).isDisabled()).toBe(true);
      await fresh.screenshot("training-locked-before-first-deposit");

      await link.click();
      await page.waitForURL("**/organization/payments");
    } finally {
      await fresh.close();
    }
  });

  it("trains an AI Clone from 10 to 15 resized JPEG photos, shows it ready, then deletes it", async () => {
    const { page, baseUrl } = session;
    await page.goto("/playground/pegasus-training");
    await page.getByRole("heading", { name: "AI Clone Training" }).waitFor();
    await page.getByRole("heading", { name: "Your AI Clones" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    expect(await page.getByTestId("training-locked").count()).toBe(0);
    expect(await page.getByTestId("price-line").textContent()).toMatch(CHARGED_PRICE_LINE);

    const start = page.getByRole("button", { name: "Start Training" });
    const fileInput = page.locator("input[type=file]");
    const photoCount = page.getByTestId("photo-count");
    expect(await photoCount.textContent()).toBe("0 / 15");
    expect(await page.getByTestId("photo-hint").textContent()).toContain("10 to 15 images are needed");
    expect(await start.isDisabled()).toBe(true);

    await fileInput.setInputFiles(await trainingPhotos(9));
    await expect.poll(() => photoCount.textContent()).toBe("9 / 15");
    expect(await start.isDisabled()).toBe(true);
    await session.screenshot("training-nine-photos");
    await fileInput.setInputFiles(await trainingPhotos(1, 9));
    await expect.poll(() => photoCount.textContent()).toBe("10 / 15");
    expect(await start.isDisabled()).toBe(false);

    await page.getByRole("button", { name: "Clear Images" }).click();
    await expect.poll(() => photoCount.textContent()).toBe("0 / 15");
    expect(await start.isDisabled()).toBe(true);

    // Sixteen dropped at once: the first fifteen are kept.
    await fileInput.setInputFiles(await trainingPhotos(16));
    await expect.poll(() => photoCount.textContent()).toBe("15 / 15");
    expect(await page.getByTestId("photo-grid").locator("img").count()).toBe(15);
    expect(await start.isDisabled()).toBe(false);

    // The name is required.
    await start.click();
    const missingName = await expectInfoDialog(
      page,
      "Missing AI Clone Name",
      "Please provide a name for your AI Clone.",
    );
    await session.screenshot("training-missing-name");
    await closeDialog(missingName);

    await page.getByLabel("Name").fill("Ada Lovelace");
    await session.screenshot("training-ready-to-start");
    const balanceBefore = await balanceOf(page, baseUrl);
    // Records the photos the page hands to fetch: the server stores inputs as PNG and forwards them so,
    // so the JPEG encoding is only visible here.
    await page.evaluate(() => {
      const sentPhotos: { name: string; type: string; jpegMagic: boolean }[] = [];
      Object.assign(window, { sentPhotos });
      const original = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const isTraining = String(input).endsWith("/v1/images/pegasus-training");
        if (isTraining && init?.body instanceof FormData) {
          for (const entry of init.body.getAll("images")) {
            if (!(entry instanceof File)) continue;
            const head = new Uint8Array(await entry.slice(0, 3).arrayBuffer());
            sentPhotos.push({
              name: entry.name,
              type: entry.type,
              jpegMagic: head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff,
            });
          }
        }
        return original(input, init);
      };
    });
    await start.click();
    await page.getByText("Training has started!").waitFor({ timeout: 60_000 });
    // The form is cleared for the next clone.
    await expect.poll(() => photoCount.textContent()).toBe("0 / 15");
    expect(await page.getByLabel("Name").inputValue()).toBe("");

    const row = historyRows(page);
    expect(await row.count()).toBe(1);
    expect(await row.getByTestId("clone-name").textContent()).toBe("Ada Lovelace");
    expect(await row.getByText("15 training photos").count()).toBe(1);
    const status = row.getByTestId("clone-status");
    expect(["Pending", "Training", "Ready"]).toContain(await status.textContent());
    await session.screenshot("training-started");

    // The call itself handed the photos to the model server, which named the identity at once.
    // (The playground submits asynchronously: the stored call carries the model server's answer.)
    await expect
      .poll(async () => (await storedRequests(page, baseUrl, projectId, "/v1/images/pegasus-training"))[0], {
        timeout: 60_000,
      })
      .toMatchObject({
        response_data: { body: { identityId: expect.stringMatching(/^identity-/), status: "pending" } },
      });
    // The job queue follows the training's status; the list is re-read while the clone is not final.
    await expect.poll(() => status.textContent(), { timeout: 90_000, interval: 1_000 }).toBe("Ready");
    await row.getByRole("img").waitFor();
    expect(
      await row.getByRole("img").evaluate((image: HTMLImageElement) => image.naturalWidth),
    ).toBeGreaterThan(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("training-ready");

    const sentPhotos = (await page.evaluate(
      () => (window as unknown as { sentPhotos: unknown }).sentPhotos,
    )) as {
      name: string;
      type: string;
      jpegMagic: boolean;
    }[];
    expect(sentPhotos).toHaveLength(15);
    for (const photo of sentPhotos) {
      expect(photo).toMatchObject({ type: "image/jpeg", jpegMagic: true });
      expect(photo.name).toMatch(/\.jpg$/);
    }

    const received = await lastModelCall("pegasus-training");
    expect(received.fields.description).toBe("Ada Lovelace");
    const images = received.files.images ?? [];
    expect(images).toHaveLength(15);
    for (const image of images) {
      expect(Math.min(image.width ?? 0, image.height ?? 0)).toBe(1024);
    }
    // A 1600 × 1200 landscape arrives as 1365 × 1024, a 640 × 800 portrait as 1024 × 1280.
    expect(images.some((image) => image.width === 1365 && image.height === 1024)).toBe(true);
    expect(images.some((image) => image.width === 1024 && image.height === 1280)).toBe(true);
    expect(await balanceOf(page, baseUrl)).toBeLessThan(balanceBefore);

    const clones = await listTrainedClones(page, baseUrl, projectId);
    expect(clones.map((clone) => [clone.description, clone.identity_status])).toEqual([
      ["Ada Lovelace", "ready"],
    ]);

    await deleteOnlyRow(page, "Delete AI Clone");
  }, 240_000);

  it("answers the model server's refusal of a training at once, lists the clone Failed and refunds it", async () => {
    const { page, baseUrl } = session;
    await page.goto("/playground/pegasus-training");
    await page.getByText(EMPTY_HISTORY).waitFor();
    await page.locator("input[type=file]").setInputFiles(await trainingPhotos(10, 20));
    await expect.poll(() => page.getByTestId("photo-count").textContent()).toBe("10 / 15");
    await page.getByLabel("Name").fill("Refused Clone");

    await failNextModelCall("pegasus-training", 422, "No face was found in the photos.");
    const balanceBefore = await balanceOf(page, baseUrl);
    await page.getByRole("button", { name: "Start Training" }).click();
    // The call hands the photos to the model server itself, so its refusal answers the call.
    const dialog = await waitForDialog(page, "Error Starting Training", {
      message: "No face was found in the photos.",
      timeout: 60_000,
    });
    await closeDialog(dialog);
    // The server kept the refused training as a failed request: it is listed so after a reload too.
    await page.reload();
    const row = historyRows(page);
    await expect
      .poll(() => row.getByTestId("clone-status").textContent(), { timeout: 30_000, interval: 500 })
      .toBe("Failed");
    expect(await row.getAttribute("data-status")).toBe("error");
    expect(await row.getByTestId("clone-name").textContent()).toBe("Refused Clone");
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("training-failed");
    expect((await lastModelCall("pegasus-training")).files.images).toHaveLength(10);
    await expect.poll(() => balanceOf(page, baseUrl), { timeout: 10_000 }).toBe(balanceBefore);

    await deleteOnlyRow(page, "Delete AI Clone");
  }, 180_000);

  it("transcribes an English recording on the builtin engine, downloads speech.json, then deletes it", async () => {
    const { page, baseUrl } = session;
    await page.goto("/playground/speech-to-text");
    await page.getByRole("heading", { name: "Speech to Text" }).waitFor();
    await page.getByRole("heading", { name: "Your Audio Transcriptions" }).waitFor();
    await page.getByText(EMPTY_HISTORY).waitFor();
    await page.getByText("Audio Source File").waitFor();
    const transcribe = page.getByRole("button", { name: "Transcribe Audio" });
    expect(await transcribe.isDisabled()).toBe(true);
    const priceLine = page.getByTestId("price-line");
    const rate = (await priceLine.textContent()) ?? "";
    expect(rate).toMatch(/^\$\d+\.\d{3} per minute$/);
    const pricePerMinute = Number(rate.slice(1).split(" ")[0]);

    // English is the default; the builtin engine offers only English, the others are listed as unavailable.
    const language = page.getByRole("combobox", { name: "Language" });
    expect(await language.inputValue()).toBe("English");
    await language.click();
    expect(await page.getByRole("option").count()).toBe(100);
    await language.fill("Germ");
    const german = page.getByRole("option", { name: "German" });
    await german.waitFor();
    expect(await german.getAttribute("aria-disabled")).toBe("true");
    await session.screenshot("speech-languages");
    await page.keyboard.press("Escape");
    await page.getByText("Audio Source File").click();
    expect(await language.inputValue()).toBe("English");

    await page
      .locator("input[type=file]")
      .setInputFiles({ name: "goforward.wav", mimeType: "audio/wav", buffer: goForwardWav() });
    // The duration written beside the player is the one the player shows (whole seconds, as it counts).
    const playerSeconds = await page.getByLabel("Audio preview").evaluate(async (audio: HTMLAudioElement) => {
      if (!Number.isFinite(audio.duration) || audio.duration === 0)
        await new Promise((loaded) => audio.addEventListener("loadedmetadata", loaded, { once: true }));
      return audio.duration;
    });
    const playerText = `${Math.floor(playerSeconds / 60)}:${String(Math.floor(playerSeconds) % 60).padStart(2, "0")}`;
    await page.getByTestId("audio-duration").getByText(`Duration: ${playerText}`, { exact: false }).waitFor();
    expect(await priceLine.textContent()).toBe(
      `$${pricePerMinute.toFixed(3)} per minute · 1 minute: $${pricePerMinute.toFixed(3)} will be charged`,
    );
    expect(await transcribe.isDisabled()).toBe(false);
    await session.screenshot("speech-file-chosen");

    const balanceBefore = await balanceOf(page, baseUrl);
    await transcribe.click();
    const row = historyRows(page);
    await row.first().waitFor();
    const done = historyRows(page, "done");
    const failed = historyRows(page, "error");
    await done.or(failed).first().waitFor({ timeout: 120_000 });
    expect(await failed.count(), "the transcription failed").toBe(0);
    expect(await row.count()).toBe(1);

    const transcript = ((await done.getByTestId("transcript").textContent()) ?? "").toLowerCase();
    expect(transcript).toContain("forward");
    const segments = done.getByTestId("segment");
    expect(await segments.count()).toBeGreaterThan(0);
    expect(await segments.first().textContent()).toMatch(/^\d+:\d{2}\.\d – \d+:\d{2}\.\d/);
    expect(await done.getByTestId("row-duration").textContent()).toBe(`Duration: ${playerText}`);
    expect(await done.getByText("English").count()).toBeGreaterThan(0);
    await expect.poll(() => balanceOf(page, baseUrl)).toBeCloseTo(balanceBefore - pricePerMinute, 6);
    // The recording's player knows its length before anyone presses play (its metadata is preloaded).
    const recording = done.getByLabel("Recording");
    await expect
      .poll(() => recording.evaluate((audio: HTMLAudioElement) => (audio.paused ? audio.duration : -1)))
      .toBeGreaterThan(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("speech-transcribed");

    const download = done.getByRole("link", { name: "Download" });
    expect(await download.getAttribute("download")).toBe("speech.json");
    const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
    expect(file.suggestedFilename()).toBe("speech.json");
    const path = await file.path();
    const saved = JSON.parse(readFileSync(path, "utf8")) as {
      language: string;
      segments: { start: number; end: number; text: string }[];
    };
    expect(saved.language).toBe("en");
    expect(saved.segments.map((segment) => segment.text).join(" ")).toContain("forward");

    expect((await lastStoredBody(page, baseUrl, projectId, "/v1/speech/transcription")).language).toBe("en");

    await deleteOnlyRow(page, "Delete Transcription");
  }, 240_000);

  it("refuses unreadable, too large and too long audio files", async () => {
    const { page } = session;
    await page.goto("/playground/speech-to-text");
    await page.getByText(EMPTY_HISTORY).waitFor();
    const input = page.locator("input[type=file]");
    const transcribe = page.getByRole("button", { name: "Transcribe Audio" });

    const noise = Buffer.alloc(4_096);
    for (let index = 0; index < noise.length; index += 1) noise[index] = (index * 7919 + 13) % 251;
    const refusals = [
      {
        file: { name: "noise.mp3", mimeType: "audio/mpeg", buffer: noise },
        title: "Error Reading Audio File",
        message: "An error occurred while reading the audio file. Please try with a different one.",
        screenshot: "speech-unreadable",
      },
      {
        file: {
          name: "large.wav",
          mimeType: "audio/wav",
          buffer: pcmToWav(Buffer.alloc(20_971_520), 16_000),
        },
        title: "Audio File Too Large",
        message: "The audio file exceeds the 20MB limit. Please use a smaller file.",
        screenshot: "speech-too-large",
      },
      {
        file: { name: "long.wav", mimeType: "audio/wav", buffer: toneWav(301) },
        title: "Audio File Too Long",
        message: "The audio file exceeds the 5 minute limit. Please use a shorter file.",
        screenshot: "speech-too-long",
      },
    ];
    for (const refusal of refusals) {
      await input.setInputFiles(refusal.file);
      const dialog = await expectInfoDialog(page, refusal.title, refusal.message);
      await session.screenshot(refusal.screenshot);
      await closeDialog(dialog);
      expect(await transcribe.isDisabled()).toBe(true);
    }

    // Just under five minutes is allowed, and priced as five started minutes.
    await input.setInputFiles({ name: "five.wav", mimeType: "audio/wav", buffer: toneWav(299.5) });
    await page.getByTestId("audio-duration").getByText("Duration: 4:59", { exact: false }).waitFor();
    expect(await page.getByTestId("price-line").textContent()).toMatch(
      /· 5 minutes: \$\d+\.\d{3} will be charged$/,
    );
    expect(await transcribe.isDisabled()).toBe(false);
  });

  it("shows a failed transcription with the error message", async () => {
    const { page, baseUrl } = session;
    // German is disabled in the dropdown on the builtin engine; sent through the API anyway, the engine
    // refuses it and the stored request fails.
    const form = new FormData();
    form.append("audio", new Blob([new Uint8Array(goForwardWav())], { type: "audio/wav" }), "goforward.wav");
    form.append("language", "de");
    const response = await postFeatureForm(page, baseUrl, projectId, "/v1/speech/transcription", form);
    expect(response.ok).toBe(false);

    await page.goto("/playground/speech-to-text");
    const row = historyRows(page, "error");
    await row.waitFor();
    await row.getByText(TRANSCRIPTION_ERROR).waitFor();
    expect(await row.getByText("German").count()).toBe(1);
    expect(await row.getByRole("button", { name: "Download" }).isDisabled()).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await session.screenshot("speech-failed");

    await deleteOnlyRow(page, "Delete Transcription");
  });
});
