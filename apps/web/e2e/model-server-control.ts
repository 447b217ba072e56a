import type { Page } from "playwright-core";
import sharp from "sharp";
import { expect } from "vitest";
import { journeyServers } from "./journey-servers";
import type { ReceivedCall } from "./model-server";
import { listTrainedClones, postFeatureForm, type StoredClone } from "./playground-helpers";

/** Makes the local model server answer the next call of `feature` with an error status. */
export async function failNextModelCall(
  feature: string,
  status = 500,
  message = "The model failed.",
): Promise<void> {
  const response = await fetch(`${(await journeyServers()).modelServerUrl}/__control/fail-next`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ feature, status, message }),
  });
  expect(response.ok).toBe(true);
}

/** What the local model server received in the last call of `feature`. */
export async function lastModelCall(feature: string): Promise<ReceivedCall> {
  const response = await fetch(`${(await journeyServers()).modelServerUrl}/__control/last/${feature}`);
  expect(response.ok, `no ${feature} call reached the model server`).toBe(true);
  return (await response.json()) as ReceivedCall;
}

/** A face-like portrait JPEG for training photos, varied by index. */
export async function portraitJpeg(index: number, width = 640, height = 800): Promise<Buffer> {
  const hue = (index * 29) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="hsl(${hue},35%,80%)"/>
    <ellipse cx="${width / 2}" cy="${height * 0.42}" rx="${width * 0.22}" ry="${height * 0.24}" fill="#e0b49a"/>
    <rect x="${width * 0.2}" y="${height * 0.7}" width="${width * 0.6}" height="${height * 0.3}" fill="hsl(${(hue + 180) % 360},40%,40%)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export interface TrainedClone {
  /** The training request id (sent as x-authorization-identity-request-id). */
  id: string;
  identity_id: string;
  description: string;
}

/**
 * Trains an AI Clone through the public feature call with the page's session (10 photos), then waits
 * until get-trained-identities lists it as ready. The organization must have made its first deposit.
 */
export async function trainClone(
  page: Page,
  baseUrl: string,
  projectId: string,
  name: string,
): Promise<TrainedClone> {
  const form = new FormData();
  for (let index = 0; index < 10; index += 1) {
    form.append(
      "images",
      new Blob([new Uint8Array(await portraitJpeg(index))], { type: "image/jpeg" }),
      `photo-${index + 1}.jpg`,
    );
  }
  form.append("description", name);
  const response = await postFeatureForm(page, baseUrl, projectId, "/v1/images/pegasus-training", form);
  expect(response.ok, `training: ${response.status} ${await response.clone().text()}`).toBe(true);
  const { request } = (await response.json()) as { request: { id: string } };
  let clone: StoredClone | undefined;
  await expect
    .poll(
      async () => {
        const clones = await listTrainedClones(page, baseUrl, projectId);
        clone = clones.find((candidate) => candidate.id === request.id);
        return clone?.identity_status;
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe("ready");
  if (!clone) throw new Error("the trained clone is not listed");
  return { id: clone.id, identity_id: clone.identity_id, description: clone.description };
}
