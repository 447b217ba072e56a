import { describe, expect, it } from "vitest";
import { buildNavigation, type PlaygroundEntry, sectionForPath } from "./navigation";

const playground: PlaygroundEntry[] = [
  { name: "Image Generation", playgroundRoute: "/playground/image-generation", productionHidden: false },
  { name: "Identity Inpainting", playgroundRoute: "/playground/identity-inpainting", productionHidden: true },
];

const granted =
  (...rights: string[]) =>
  (permission: string) =>
    rights.includes(permission);

const labels = (sections: ReturnType<typeof buildNavigation>, key: string) =>
  sections.find((section) => section.key === key)?.items?.map((item) => item.label);

describe("buildNavigation", () => {
  it("shows every entry to a user holding every right", () => {
    const sections = buildNavigation({ can: () => true, isProduction: false, playground });
    expect(sections.map((section) => section.label)).toEqual([
      "Home",
      "Organization",
      "Projects",
      "Playground",
      "Settings",
    ]);
    expect(labels(sections, "organization")).toEqual([
      "General",
      "Members",
      "Payments",
      "Billing",
      "Invoices",
      "Webhooks",
      "Audit log",
      "Security",
    ]);
    expect(labels(sections, "projects")).toEqual(["General", "API Keys"]);
    expect(labels(sections, "playground")).toEqual(["Image Generation", "Identity Inpainting"]);
  });

  it("hides organization entries and the playground without their rights, keeping Members and Projects", () => {
    const sections = buildNavigation({
      can: granted("organization.billing"),
      isProduction: false,
      playground,
    });
    expect(labels(sections, "organization")).toEqual(["Members", "Billing"]);
    expect(labels(sections, "projects")).toEqual(["General", "API Keys"]);
    expect(sections.some((section) => section.key === "playground")).toBe(false);
  });

  it("lists production-hidden features only outside production", () => {
    const sections = buildNavigation({ can: () => true, isProduction: true, playground });
    expect(labels(sections, "playground")).toEqual(["Image Generation"]);
  });
});

describe("sectionForPath", () => {
  const sections = buildNavigation({ can: () => true, isProduction: false, playground });

  it("finds the submenu holding the current route", () => {
    expect(sectionForPath(sections, "/organization/billing")).toBe("organization");
    expect(sectionForPath(sections, "/playground/image-generation")).toBe("playground");
    expect(sectionForPath(sections, "/home")).toBe("home");
    expect(sectionForPath(sections, "/elsewhere")).toBeNull();
  });
});
