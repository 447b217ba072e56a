import { expect } from "vitest";
import { makePng, multipart } from "./images";
import type { TestApp } from "./test-app";

/** What a started training answers: the request's id and the identity the model server gave it. */
export interface StartedTraining {
  request: { id: string; response_data: { body: { identityId: string } } };
}

/** Starts an AI Clone training with ten photos under an API key, as a customer's client would. */
export async function startTraining(testApp: TestApp, apiKey: string, description: string) {
  const photos = await Promise.all(Array.from({ length: 10 }, (_, index) => makePng(40 + index, 40)));
  const body = multipart([
    ...photos.map((photo, index) => ({
      name: "images",
      value: photo,
      filename: `face-${index}.png`,
      contentType: "image/png",
    })),
    { name: "description", value: description },
  ]);
  const response = await testApp.app.inject({
    method: "POST",
    url: "/v1/images/pegasus-training",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as StartedTraining;
}
