import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { AmountInput } from "./amount-input";

function Harness({ initial, description }: { initial: number | string; description?: string }) {
  const [value, setValue] = useState<number | string>(initial);
  return (
    <MantineProvider>
      <AmountInput label="Amount" value={value} onChange={setValue} description={description} />
      <output data-testid="value">{String(value)}</output>
    </MantineProvider>
  );
}

describe("AmountInput", () => {
  it("raises a value below $20 to $20 when the field is left", async () => {
    render(<Harness initial={100} />);
    const user = userEvent.setup();
    const input = screen.getByLabelText("Amount");
    await user.clear(input);
    await user.type(input, "5");
    expect(input).toHaveValue("$5");
    await user.tab();
    expect(input).toHaveValue("$20");
    expect(screen.getByTestId("value")).toHaveTextContent("20");
  });

  it("raises an emptied field to $20 and keeps larger amounts with their cents", async () => {
    render(<Harness initial={100} />);
    const user = userEvent.setup();
    const input = screen.getByLabelText("Amount");
    await user.clear(input);
    await user.tab();
    expect(input).toHaveValue("$20");
    await user.clear(input);
    await user.type(input, "45.5");
    await user.tab();
    expect(input).toHaveValue("$45.5");
  });

  it("shows the $20 minimum next to the field, also beside a description of its own", () => {
    render(<Harness initial={100} description="Recharge when the balance falls below" />);
    const input = screen.getByLabelText("Amount");
    expect(input).toHaveAccessibleDescription(/Recharge when the balance falls below/);
    expect(input).toHaveAccessibleDescription(/Minimum \$20/);
  });
});
