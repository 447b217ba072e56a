import type { IdentityStatus, TrainedIdentity } from "@prism/contract";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ownedOrganization, renderWithSession, stubApi, userWith } from "../../../test/session-harness";
import { IdentityPicker } from "./identity-picker";

const PROJECT = "11111111-1111-4111-8111-111111111111";

function clone(id: string, description: string, status: IdentityStatus): TrainedIdentity {
  return {
    id,
    request_date: "2026-11-03T16:05:00Z",
    request_data: { files: { images: [`/v1/files/${id}-1.jpg`, `/v1/files/${id}-2.jpg`] }, body: {} },
    response_data: { body: { identityId: `identity-${id}` } },
    status: "done",
    description,
    identity_id: `identity-${id}`,
    identity_status: status,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPicker(answer: () => { status?: number; body: unknown }) {
  const api = stubApi({
    "/v1/users/me": () => ({ body: userWith(ownedOrganization()) }),
    "/v1/users/playground/get-trained-identities": answer,
  });
  const selections: (string | null)[] = [];
  function Harness() {
    const [value, setValue] = useState<TrainedIdentity | null>(null);
    return (
      <>
        <IdentityPicker
          projectId={PROJECT}
          value={value}
          onChange={(identity) => {
            selections.push(identity?.id ?? null);
            setValue(identity);
          }}
        />
        <p data-testid="selected">{value?.description ?? "none"}</p>
      </>
    );
  }
  renderWithSession(<Harness />);
  return { api, selections };
}

describe("IdentityPicker", () => {
  it("selects the first ready clone once loaded, lists the others with their status, and closes on choice", async () => {
    const { api } = renderPicker(() => ({
      body: {
        requests: [
          clone("c1", "Still training", "training"),
          clone("c2", "Eileen", "ready"),
          clone("c3", "Grace", "ready"),
        ],
        hasMoreItems: false,
      },
    }));
    await waitFor(() => expect(screen.getByTestId("selected")).toHaveTextContent("Eileen"));
    expect(api.bodiesTo("/v1/users/playground/get-trained-identities")[0]).toEqual({
      projectId: PROJECT,
      offset: 0,
    });

    // The open list counts as hidden in jsdom (see below), so pointer-events checks are skipped.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const target = screen.getByTestId("identity-picker");
    await user.click(target);
    // jsdom never finishes Mantine's transitions, so the open list counts as hidden: read it anyway.
    await waitFor(() => expect(target).toHaveAttribute("aria-expanded", "true"));
    const listbox = screen.getByRole("listbox", { hidden: true });
    const option = (name: string) => within(listbox).getByRole("option", { name, hidden: true });
    const training = option("Still training");
    expect(training).toHaveAttribute("data-combobox-disabled");
    expect(training).toHaveTextContent("Training");
    expect(option("Eileen")).not.toHaveAttribute("data-combobox-disabled");
    // The first training image's thumbnail stands for each clone.
    const thumbnails = Array.from(listbox.querySelectorAll("img")).map((image) => image.getAttribute("src"));
    expect(thumbnails).toContain("/v1/files/c3-1.jpg_thumb");

    await user.click(training);
    expect(screen.getByTestId("selected")).toHaveTextContent("Eileen");

    await user.click(option("Grace"));
    expect(screen.getByTestId("selected")).toHaveTextContent("Grace");
    await waitFor(() => expect(target).toHaveAttribute("aria-expanded", "false"));
  });

  it("stays empty without a dialog when the clones cannot be loaded", async () => {
    const { selections } = renderPicker(() => ({
      status: 500,
      body: { error: "internal-error", message: "boom" },
    }));
    await screen.findByText("No AI Clones yet");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByTestId("selected")).toHaveTextContent("none");
    expect(selections.filter((id) => id !== null)).toEqual([]);
  });
});
