import type { TrainedIdentity } from "@prism/contract";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { IdentityPicker } from "./identity-picker";

const PROJECT = "11111111-1111-4111-8111-111111111111";

function clone(id: string, description: string, status: TrainedIdentity["identity_status"]): TrainedIdentity {
  return {
    id,
    request_date: "2026-11-03T16:05:00Z",
    cost: 0.02,
    request_data: { files: { images: [`/v1/files/${id}-1.jpg`, `/v1/files/${id}-2.jpg`] }, body: {} },
    response_data: {},
    status: "done",
    description,
    identity_id: `identity-${id}`,
    identity_status: status,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function Harness({ onChosen }: { onChosen: (identity: TrainedIdentity | null) => void }) {
  const [value, setValue] = useState<TrainedIdentity | null>(null);
  return (
    <IdentityPicker
      projectId={PROJECT}
      value={value}
      onChange={(identity) => {
        setValue(identity);
        onChosen(identity);
      }}
    />
  );
}

function stubIdentities(answer: () => { status?: number; body: unknown }) {
  return stubApi({
    "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
    "/v1/users/playground/get-trained-identities": answer,
  });
}

describe("IdentityPicker", () => {
  it("chooses the first ready clone by default, skipping one still training", async () => {
    const { bodiesTo } = stubIdentities(() => ({
      body: {
        requests: [clone("c1", "Still Learning", "training"), clone("c2", "Ada", "ready")],
        hasMoreItems: false,
      },
    }));
    const onChosen = vi.fn();
    renderWithSession(<Harness onChosen={onChosen} />);
    await waitFor(() => expect(onChosen).toHaveBeenLastCalledWith(expect.objectContaining({ id: "c2" })));
    expect(screen.getByTestId("identity-picker")).toHaveTextContent("Ada");
    expect(bodiesTo("/v1/users/playground/get-trained-identities")).toEqual([
      { projectId: PROJECT, offset: 0 },
    ]);
  });

  it("shows thumbnails and statuses; a clone in training cannot be chosen, another closes the list", async () => {
    stubIdentities(() => ({
      body: {
        requests: [
          clone("c1", "Ada", "ready"),
          clone("c2", "Grace", "ready"),
          clone("c3", "Still Learning", "training"),
        ],
        hasMoreItems: false,
      },
    }));
    const onChosen = vi.fn();
    renderWithSession(<Harness onChosen={onChosen} />);
    // The hidden list (see below) would fail the pointer-events check.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    await waitFor(() => expect(screen.getByTestId("identity-picker")).toHaveTextContent("Ada"));

    await user.click(screen.getByTestId("identity-picker"));
    // jsdom never finishes Mantine's dropdown transition, so the open list counts as hidden here.
    const picker = screen.getByTestId("identity-picker");
    expect(picker).toHaveAttribute("data-expanded", "true");
    const training = await screen.findByRole("option", { name: "Still Learning (training)", hidden: true });
    expect(training).toHaveAttribute("data-combobox-disabled", "true");
    expect(training).toHaveTextContent("training");
    const grace = screen.getByRole("option", { name: "Grace (ready)", hidden: true });
    expect(grace.querySelector("img")).toHaveAttribute("src", "/v1/files/c2-1.jpg_thumb");

    await user.click(training);
    expect(onChosen).not.toHaveBeenLastCalledWith(expect.objectContaining({ id: "c3" }));
    expect(picker).toHaveAttribute("data-expanded", "true");

    await user.click(grace);
    await waitFor(() => expect(picker).not.toHaveAttribute("data-expanded"));
    expect(onChosen).toHaveBeenLastCalledWith(expect.objectContaining({ id: "c2" }));
    expect(screen.getByTestId("identity-picker")).toHaveTextContent("Grace");
  });

  it("ignores a failed load silently: no dialog, no clone", async () => {
    stubIdentities(() => ({ status: 500, body: { error: "internal-error", message: "boom" } }));
    const onChosen = vi.fn();
    renderWithSession(<Harness onChosen={onChosen} />);
    await waitFor(() => expect(screen.getByTestId("identity-picker")).toHaveTextContent("No AI Clones yet"));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(onChosen).not.toHaveBeenCalledWith(expect.objectContaining({ id: expect.any(String) }));
  });
});
