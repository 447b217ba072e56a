import { MantineProvider } from "@mantine/core";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiKeyNameInput } from "./api-key-name-input";

function renderInput(onRename: (name: string) => Promise<void>, name = "Server") {
  render(
    <MantineProvider>
      <ApiKeyNameInput name={name} onRename={onRename} />
    </MantineProvider>,
  );
  return screen.getByRole("textbox", { name: "API key name" }) as HTMLInputElement;
}

describe("ApiKeyNameInput", { timeout: 20_000 }, () => {
  it("sends the new name when Enter is pressed", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn(async () => {});
    const input = renderInput(onRename);
    await user.clear(input);
    await user.type(input, "  Backend  {Enter}");
    expect(onRename).toHaveBeenCalledTimes(1);
    expect(onRename).toHaveBeenCalledWith("Backend");
    expect(input.value).toBe("Backend");
  });

  it("reverts on Escape without sending anything", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn(async () => {});
    const input = renderInput(onRename);
    await user.clear(input);
    await user.type(input, "Something else{Escape}");
    expect(input.value).toBe("Server");
    expect(input).not.toHaveFocus();
    await user.click(document.body);
    expect(onRename).not.toHaveBeenCalled();
  });

  it("sends nothing when the name did not change", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn(async () => {});
    const input = renderInput(onRename);
    await user.click(input);
    await user.type(input, "{Enter}");
    await user.clear(input);
    await user.type(input, " Server {Enter}");
    expect(onRename).not.toHaveBeenCalled();
  });

  it("commits when the field is left, once", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn(async () => {});
    const input = renderInput(onRename);
    await user.clear(input);
    await user.type(input, "Worker");
    await user.tab();
    expect(onRename).toHaveBeenCalledExactlyOnceWith("Worker");
  });

  it('sends an emptied name as "- no name -"', async () => {
    const user = userEvent.setup();
    const onRename = vi.fn(async () => {});
    const input = renderInput(onRename);
    await user.clear(input);
    await user.type(input, "{Enter}");
    expect(onRename).toHaveBeenCalledWith("- no name -");
  });

  it("reverts the input when the server refuses the new name", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn(async () => {
      throw new Error("refused");
    });
    const input = renderInput(onRename);
    await user.clear(input);
    await user.type(input, "Broken{Enter}");
    await waitFor(() => expect(input.value).toBe("Server"));
  });

  it("shows a name changed elsewhere and compares the next edit with it", async () => {
    const user = userEvent.setup();
    const onRename = vi.fn(async () => {});
    const { rerender } = render(
      <MantineProvider>
        <ApiKeyNameInput name="Server" onRename={onRename} />
      </MantineProvider>,
    );
    rerender(
      <MantineProvider>
        <ApiKeyNameInput name="Renamed" onRename={onRename} />
      </MantineProvider>,
    );
    const input = screen.getByRole("textbox", { name: "API key name" }) as HTMLInputElement;
    expect(input.value).toBe("Renamed");
    await user.clear(input);
    await user.type(input, " Renamed {Enter}");
    expect(onRename).not.toHaveBeenCalled();
    await user.clear(input);
    await user.type(input, "Server{Enter}");
    expect(onRename).toHaveBeenCalledExactlyOnceWith("Server");
  });
});
