import {
  AI_CLONE_NOT_SELECTED,
  type Feature,
  IDENTITY_REQUEST_HEADER,
  imageGenerationFeature,
  pegasusGenerationFeature,
  RANDOM_PROMPTS,
  type TrainedIdentity,
} from "@prism/contract";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useNodeMultipart } from "../../../test/node-multipart";
import {
  ownedOrganization,
  renderWithSession,
  stubApi,
  stubFeature,
  userWith,
} from "../../../test/session-harness";
import { ImageGenerationPage } from "./image-generation-page";
import { PegasusGenerationPage } from "./pegasus-generation-page";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const CLONE: TrainedIdentity = {
  id: "training-1",
  request_date: "2026-11-03T16:05:00Z",
  cost: 0.02,
  request_data: { files: { images: ["/v1/files/face-1.jpg"] }, body: { description: "Ada" } },
  response_data: {},
  status: "done",
  description: "Ada",
  identity_id: "identity-ada",
  identity_status: "ready",
};

beforeEach(() => {
  useNodeMultipart();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The JSON calls through the session harness; the feature call answers a stored record. */
function stubGeneration(feature: Feature, options: { identities?: TrainedIdentity[]; requests?: unknown[] }) {
  const priceInfo = { price: 0.03, priceIdentity: 0.05 };
  stubApi({
    "/v1/users/me": () => ({ body: userWith(ownedOrganization({ balance: 5 })) }),
    "/v1/users/playground/feature-status": () => ({
      body: {
        features: [
          { endpoint: feature.endpoint, available: true, reason: null, provider: "http", priceInfo },
        ],
      },
    }),
    "/v1/users/playground/get-requests": () => ({
      body: { requests: options.requests ?? [], hasMoreItems: false, priceInfo },
    }),
    "/v1/users/playground/get-trained-identities": () => ({
      body: { requests: options.identities ?? [], hasMoreItems: false },
    }),
  });
  const featureCalls = stubFeature(feature.endpoint, ({ body }, index) =>
    json(200, {
      balance: 4.9,
      cost: 0.02,
      request: {
        id: `req-${index + 1}`,
        request_date: "2026-11-03T16:05:00Z",
        cost: 0.02,
        request_data: { files: {}, body: Object.fromEntries(body.entries()) },
        response_data: { file: `/v1/files/out-${index + 1}.png` },
        status: "done",
      },
    }),
  );
  return { featureCalls };
}

describe("ImageGenerationPage", () => {
  it("fills a random prompt, launches one call per image and sends the negative prompt only when checked", async () => {
    const { featureCalls } = stubGeneration(imageGenerationFeature, {});
    renderWithSession(<ImageGenerationPage />);
    const user = userEvent.setup();
    const prompt = await screen.findByRole("textbox", { name: "Prompt" });
    expect(RANDOM_PROMPTS).toContain((prompt as HTMLTextAreaElement).value);
    expect(await screen.findByTestId("price-line")).toHaveTextContent("$0.030 will be charged");

    await user.clear(prompt);
    expect(screen.getByRole("button", { name: "Generate" })).toBeDisabled();
    await user.type(prompt, "A red fox");
    await user.type(screen.getByRole("textbox", { name: "Negative Prompt" }), "blurry");
    await user.click(screen.getByText("3"));
    expect(screen.getByTestId("price-line")).toHaveTextContent("$0.090 will be charged");

    await user.click(screen.getByRole("button", { name: "Generate" }));
    await waitFor(() => expect(featureCalls).toHaveLength(3));
    for (const call of featureCalls) {
      expect(Object.fromEntries(call.body.entries())).toEqual({
        prompt: "A red fox",
        negative_prompt: "blurry",
        width: "1024",
        height: "1024",
      });
    }
    await waitFor(() => expect(screen.getAllByTestId("history-row")).toHaveLength(3));

    await user.click(screen.getByRole("checkbox", { name: "Use Negative Prompt" }));
    await user.click(screen.getByText("1"));
    await user.click(screen.getByRole("button", { name: "Generate" }));
    await waitFor(() => expect(featureCalls).toHaveLength(4));
    expect(featureCalls[3]?.body.has("negative_prompt")).toBe(false);
  });

  it("Reuse puts a row's prompt, negative prompt and custom size back", async () => {
    stubGeneration(imageGenerationFeature, {
      requests: [
        {
          id: "req-old",
          request_date: "2026-11-03T16:05:00Z",
          cost: 0.02,
          request_data: {
            files: {},
            body: { prompt: "Old fox", negative_prompt: "rain", width: 1000, height: 750 },
          },
          response_data: { file: "/v1/files/old.png" },
          status: "done",
        },
      ],
    });
    renderWithSession(<ImageGenerationPage />);
    const user = userEvent.setup();
    const row = await screen.findByTestId("history-row");
    expect(within(row).getByTestId("row-prompt")).toHaveTextContent("Old fox");
    expect(within(row).getByTestId("row-prompt")).toHaveTextContent("1000x750 (custom)");
    await user.click(screen.getByRole("checkbox", { name: "Use Negative Prompt" }));
    await user.click(within(row).getByRole("button", { name: "Reuse" }));
    expect(screen.getByRole("textbox", { name: "Prompt" })).toHaveValue("Old fox");
    expect(screen.getByRole("checkbox", { name: "Use Negative Prompt" })).toBeChecked();
    // The negative prompt box opens with a transition.
    expect(await screen.findByRole("textbox", { name: "Negative Prompt" })).toHaveValue("rain");
    expect(screen.getByRole("combobox", { name: "Resolution" })).toHaveValue("1000x750 (custom)");
  });
});

describe("PegasusGenerationPage", () => {
  it("asks for an AI Clone when cloning is on and none exists, and sends nothing", async () => {
    const { featureCalls } = stubGeneration(pegasusGenerationFeature, { identities: [] });
    renderWithSession(<PegasusGenerationPage />);
    const user = userEvent.setup();
    await screen.findByTestId("price-line");
    expect(screen.queryByRole("checkbox", { name: "Use Negative Prompt" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: "Use the AI Cloning" }));
    expect(screen.getByTestId("price-line")).toHaveTextContent("$0.050 will be charged");
    await user.click(screen.getByRole("button", { name: "Generate" }));
    const dialog = await screen.findByRole("dialog", { name: AI_CLONE_NOT_SELECTED.title });
    expect(within(dialog).getByText(AI_CLONE_NOT_SELECTED.message)).toBeInTheDocument();
    expect(featureCalls).toHaveLength(0);
  });

  it("sends the default clone's identity_id, artistic and the identity header; without cloning, none of them", async () => {
    const { featureCalls } = stubGeneration(pegasusGenerationFeature, { identities: [CLONE] });
    renderWithSession(<PegasusGenerationPage />);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByTestId("identity-picker")).toHaveTextContent("Ada"));

    await user.click(screen.getByRole("button", { name: "Generate" }));
    await waitFor(() => expect(featureCalls).toHaveLength(1));
    expect(featureCalls[0]?.headers.has(IDENTITY_REQUEST_HEADER)).toBe(false);
    expect(featureCalls[0]?.body.has("identity_id")).toBe(false);
    expect(featureCalls[0]?.body.has("artistic")).toBe(false);

    await user.click(screen.getByRole("checkbox", { name: "Use the AI Cloning" }));
    await user.click(screen.getByRole("checkbox", { name: "Use Artistic Checkpoint" }));
    await user.click(screen.getByRole("button", { name: "Generate" }));
    await waitFor(() => expect(featureCalls).toHaveLength(2));
    expect(featureCalls[1]?.headers.get(IDENTITY_REQUEST_HEADER)).toBe("training-1");
    expect(featureCalls[1]?.body.get("identity_id")).toBe("identity-ada");
    expect(featureCalls[1]?.body.get("artistic")).toBe("true");
    expect(featureCalls[1]?.body.has("negative_prompt")).toBe(false);
  });
});
