import { Blob as NodeBlob } from "node:buffer";
import {
  AI_CLONE_NAME_MISSING,
  pegasusTrainingFeature,
  TRAINING_MIN_IMAGES,
  TRAINING_STARTED,
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
import { SizedImage } from "../../../test/sized-image";
import { PegasusTrainingPage } from "./pegasus-training-page";

// The photos the user picks are the browser's own Files (useNodeMultipart swaps the global for the
// ones the page sends).
const BrowserFile = File;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  useNodeMultipart();
  // jsdom loads and draws no pictures: every photo reads as 800 × 600, and its resize for training
  // (trainingImageSize has its own tests) yields a small JPEG.
  vi.stubGlobal("Image", SizedImage);
  vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:photo#800x600");
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.stubGlobal("createImageBitmap", async () => ({ width: 800, height: 600, close: () => {} }));
  const drawing: Pick<CanvasRenderingContext2D, "fillRect" | "drawImage"> = {
    fillRect: () => {},
    drawImage: () => {},
  };
  // jsdom has no 2D context; the page only fills and draws on it.
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(
    drawing as unknown as CanvasRenderingContext2D,
  );
  vi.spyOn(HTMLCanvasElement.prototype, "toBlob").mockImplementation((done) => {
    // Node's own Blob, so the JPEG reaches the multipart body (see useNodeMultipart).
    done(new NodeBlob([new Uint8Array([0xff, 0xd8, 0xff])], { type: "image/jpeg" }) as unknown as Blob);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderPage() {
  stubApi({
    "/v1/users/me": () => ({
      body: userWith(ownedOrganization({ balance: 50, properties: { isNew: false } })),
    }),
    "/v1/users/playground/feature-status": () => ({
      body: {
        features: [
          {
            endpoint: pegasusTrainingFeature.endpoint,
            available: true,
            reason: null,
            provider: "http",
            priceInfo: { price: 5 },
          },
        ],
      },
    }),
    "/v1/users/playground/get-requests": () => ({
      body: { requests: [], hasMoreItems: false, priceInfo: { price: 5 } },
    }),
  });
  const featureCalls = stubFeature(pegasusTrainingFeature.endpoint, ({ body }) =>
    json(200, {
      balance: 45,
      cost: 5,
      request: {
        id: "training-1",
        request_date: "2026-11-03T16:05:00Z",
        cost: 5,
        request_data: { files: { images: [] }, body: { description: body.get("description") } },
        response_data: { body: { identityId: "identity-1", status: "pending" } },
        status: "done",
      },
    }),
  );
  renderWithSession(<PegasusTrainingPage />);
  return { featureCalls };
}

describe("PegasusTrainingPage", () => {
  it("asks for the clone's name in a dialog, not under the field, and sends it trimmed, then clears it", async () => {
    const { featureCalls } = renderPage();
    const user = userEvent.setup();
    const name = await screen.findByRole("textbox", { name: "Name" });
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error("no file input");
    const photos = Array.from(
      { length: TRAINING_MIN_IMAGES },
      (_, index) =>
        new BrowserFile([new Uint8Array([1, 2, 3])], `face-${index + 1}.jpg`, { type: "image/jpeg" }),
    );
    await user.upload(input, photos);
    await waitFor(() =>
      expect(screen.getByTestId("photo-count")).toHaveTextContent(`${TRAINING_MIN_IMAGES} / `),
    );
    const start = screen.getByRole("button", { name: "Start Training" });
    await waitFor(() => expect(start).toBeEnabled());

    await user.type(name, "   ");
    await user.click(start);
    const missing = await screen.findByRole("dialog", { name: AI_CLONE_NAME_MISSING.title });
    expect(missing).toHaveTextContent(AI_CLONE_NAME_MISSING.message);
    expect(name).not.toHaveAttribute("aria-invalid", "true");
    await user.click(within(missing).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.queryByText(AI_CLONE_NAME_MISSING.message)).toBeNull();
    expect(featureCalls).toHaveLength(0);

    await user.type(name, "Jane Doe  ");
    await user.click(start);
    await waitFor(() => expect(featureCalls).toHaveLength(1));
    expect(featureCalls[0]?.body.get("description")).toBe("Jane Doe");
    expect(featureCalls[0]?.body.getAll("images")).toHaveLength(TRAINING_MIN_IMAGES);
    expect(await screen.findByText(TRAINING_STARTED)).toBeInTheDocument();
    expect(name).toHaveValue("");
    expect(screen.getByTestId("photo-count")).toHaveTextContent("0 / ");
  });
});
