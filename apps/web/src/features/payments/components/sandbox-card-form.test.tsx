import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { CardErrors } from "../lib/card";
import { SandboxCardForm } from "./sandbox-card-form";

function renderForm(onSubmit = vi.fn<() => Promise<CardErrors | undefined>>(async () => undefined)) {
  render(
    <MantineProvider>
      <SandboxCardForm onSubmit={onSubmit} onCancel={() => {}} />
    </MantineProvider>,
  );
  return { onSubmit, user: userEvent.setup() };
}

const brandShown = () =>
  screen.getByLabelText("Card number").closest(".mantine-TextInput-root")?.querySelector("svg");

describe("SandboxCardForm", () => {
  it("shows the brand while typing and flags a number failing the Luhn check at once", async () => {
    const { user, onSubmit } = renderForm();
    const number = screen.getByLabelText("Card number");
    await user.type(number, "3782");
    expect(brandShown()).toHaveAttribute("data-brand", "american express");
    await user.clear(number);
    await user.type(number, "4242424242424241");
    expect(number).toHaveValue("4242 4242 4242 4241");
    expect(brandShown()).toHaveAttribute("data-brand", "visa");
    expect(screen.getByText("Your card number is invalid.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends the digits, the month and the four-digit year of a valid card", async () => {
    const { user, onSubmit } = renderForm();
    await user.type(screen.getByLabelText("Card number"), "4242 4242 4242 4242");
    await user.type(screen.getByLabelText("Expiry date"), "1234");
    expect(screen.getByLabelText("Expiry date")).toHaveValue("12 / 34");
    await user.type(screen.getByLabelText("Security code"), "123");
    expect(screen.queryByText("Your card number is invalid.")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(onSubmit).toHaveBeenCalledWith({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2034,
      cvc: "123",
    });
  });

  it("shows the server's refusal under the field it concerns", async () => {
    const { user } = renderForm(
      vi.fn(async (): Promise<CardErrors | undefined> => ({ number: "Your card was declined." })),
    );
    await user.type(screen.getByLabelText("Card number"), "4000000000000002");
    await user.type(screen.getByLabelText("Expiry date"), "1234");
    await user.type(screen.getByLabelText("Security code"), "123");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Your card was declined.")).toBeInTheDocument();
  });

  it("asks for every field when saved empty", async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByText("Enter your card number.")).toBeInTheDocument();
    expect(screen.getByText("Enter the expiry date.")).toBeInTheDocument();
    expect(screen.getByText("Enter the security code.")).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
