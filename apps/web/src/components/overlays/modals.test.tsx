import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { openConfirmModal, openNameInputModal } from "./modals";

function renderModals() {
  render(
    <MemoryRouter>
      <MantineProvider>
        <ModalsProvider>
          <div />
        </ModalsProvider>
      </MantineProvider>
    </MemoryRouter>,
  );
}

describe("openNameInputModal", () => {
  it("asks again for an empty name and resolves the trimmed name", async () => {
    renderModals();
    const user = userEvent.setup();
    let answer: Promise<string | null> = Promise.resolve(null);
    act(() => {
      answer = openNameInputModal({ title: "Create project", label: "Project name" });
    });
    await user.click(await screen.findByRole("button", { name: "Create" }));
    expect(await screen.findByText("Please enter a name.")).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Project name/), "  Alpha  {Enter}");
    await expect(answer).resolves.toBe("Alpha");
  });

  it("shows the given required message until the name is edited", async () => {
    renderModals();
    const user = userEvent.setup();
    let answer: Promise<string | null> = Promise.resolve(null);
    act(() => {
      answer = openNameInputModal({
        title: "Create organization",
        label: "Organization name",
        requiredMessage: "Please fill in all required fields.",
      });
    });
    await user.type(await screen.findByLabelText(/Organization name/), "   {Enter}");
    expect(await screen.findByText("Please fill in all required fields.")).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Organization name/), "Acme");
    expect(screen.queryByText("Please fill in all required fields.")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Create" }));
    await expect(answer).resolves.toBe("Acme");
  });

  it("resolves null when cancelled", async () => {
    renderModals();
    const user = userEvent.setup();
    let answer: Promise<string | null> = Promise.resolve("x");
    act(() => {
      answer = openNameInputModal({ title: "Create project", label: "Project name" });
    });
    await user.click(await screen.findByRole("button", { name: "Cancel" }));
    await expect(answer).resolves.toBeNull();
  });
});

describe("openConfirmModal", () => {
  it("words the delete variant 'Yes, proceed' / 'No' and resolves true on confirm", async () => {
    renderModals();
    const user = userEvent.setup();
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = openConfirmModal({ title: "Delete Image", message: "Really?", variant: "delete" });
    });
    await user.click(await screen.findByRole("button", { name: "Yes, proceed" }));
    await expect(answer).resolves.toBe(true);
  });

  it("resolves false on No", async () => {
    renderModals();
    const user = userEvent.setup();
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      answer = openConfirmModal({ title: "Logout", message: "Are you sure you want to logout?" });
    });
    await user.click(await screen.findByRole("button", { name: "No" }));
    await expect(answer).resolves.toBe(false);
  });
});
