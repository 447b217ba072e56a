import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { EntitySettings, type EntitySettingsProps } from "./entity-settings";

const EMPTY_NAME = "Please fill in the name.";

function renderSettings(overrides: Partial<EntitySettingsProps> = {}) {
  const onSave = vi.fn<(name: string) => Promise<boolean>>().mockResolvedValue(true);
  render(
    <MantineProvider>
      <EntitySettings
        details={{ title: "Project details", description: "The project's name." }}
        idLabel="Project ID"
        id="p-1"
        nameLabel="Project name"
        initialName="Default"
        readOnlyHint="Only the owner renames the project."
        emptyNameError={EMPTY_NAME}
        canEdit
        saving={false}
        onSave={onSave}
        archive={{ title: "Archive project", description: "Hides the project." }}
        archiving={false}
        onArchive={() => {}}
        {...overrides}
      />
    </MantineProvider>,
  );
  return { onSave, user: userEvent.setup(), name: () => screen.getByLabelText(/Project name/) };
}

describe("EntitySettings: the name form", () => {
  it("refuses an empty name with the given message until edited, then saves the trimmed name", async () => {
    const { onSave, user, name } = renderSettings();
    await user.clear(name());
    await user.type(name(), "   ");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByText(EMPTY_NAME)).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();

    await user.type(name(), "Renamed ");
    expect(screen.queryByText(EMPTY_NAME)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith("Renamed");
    expect(name()).toHaveValue("Renamed");
  });

  it("keeps the typed name when the save fails", async () => {
    const { onSave, user, name } = renderSettings();
    onSave.mockResolvedValue(false);
    await user.type(name(), " 2 ");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(onSave).toHaveBeenCalledWith("Default 2");
    expect(name()).toHaveValue("Default 2 ");
  });

  it("saves nothing for a reader: the name is read-only with the hint", async () => {
    const { onSave, name } = renderSettings({ canEdit: false });
    expect(name()).toHaveAttribute("readonly");
    expect(screen.getByText("Only the owner renames the project.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
    expect(onSave).not.toHaveBeenCalled();
  });
});
