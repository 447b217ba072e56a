import { fullPermissions, NO_API_KEY_LIMITS } from "@prism/contract";
import { describe, expect, it } from "vitest";
import { describeAuditChanges } from "./audit-changes";

const names = {
  projects: new Map([["c0e99a98-cf70-4810-9bee-5a8cfdcd2257", "Default Project"]]),
  members: new Map([["9d2f0a4e-1b2c-4d3e-8f4a-5b6c7d8e9f00", "Grace Hopper"]]),
};

describe("describeAuditChanges", () => {
  it("reads a new API key's record as a person would: no JSON, no ids, no camelCase", () => {
    const changes = describeAuditChanges(
      {
        changes: {
          after: {
            name: "CI",
            lastFour: "n0bw",
            projectId: "c0e99a98-cf70-4810-9bee-5a8cfdcd2257",
            limits: {
              ...NO_API_KEY_LIMITS,
              endpoints: ["/v1/images/background-removal"],
              monthlySpendCap: 25,
              requestsPerMinute: 60,
            },
          },
        },
      },
      names,
    );
    expect(changes).toEqual([
      { label: "Name", after: "CI" },
      { label: "Last 4 Digits", after: "••••n0bw" },
      { label: "Project", after: "Default Project" },
      { label: "Limits", after: "Background Removal, $25.00/month, 60/min" },
    ]);
    for (const text of changes.flatMap((change) => [change.label, change.before ?? "", change.after ?? ""])) {
      expect(text).not.toMatch(/[{}"]|[0-9a-f]{8}-[0-9a-f]{4}|[a-z][A-Z]/);
    }
  });

  it("leaves out a field whose before and after read the same, and labels the others", () => {
    const changes = describeAuditChanges(
      {
        changes: {
          before: { billingName: "Acme", city: null, zipCode: "10115", requireTwoFactor: false },
          after: { billingName: "Acme", city: "Berlin", zipCode: "10115", requireTwoFactor: true },
        },
      },
      names,
    );
    expect(changes).toEqual([
      { label: "City", before: "—", after: "Berlin" },
      { label: "Two-factor sign-in required", before: "Off", after: "On" },
    ]);
  });

  it("shows money in dollars, empty limits by what they mean, owners and permissions by name", () => {
    expect(
      describeAuditChanges(
        {
          changes: {
            before: { monthlySpendCap: null, endpoints: null, threshold: 20, ownerUserId: "x-gone" },
            after: {
              monthlySpendCap: 12.5,
              endpoints: ["/v1/speech/transcription"],
              threshold: 35,
              ownerUserId: "9d2f0a4e-1b2c-4d3e-8f4a-5b6c7d8e9f00",
            },
          },
        },
        names,
      ),
    ).toEqual([
      { label: "Monthly spend cap", before: "No cap", after: "$12.50" },
      { label: "Features", before: "All features", after: "Speech to Text" },
      { label: "Threshold", before: "$20.00", after: "$35.00" },
      { label: "Owner", before: "A former member", after: "Grace Hopper" },
    ]);
    expect(
      describeAuditChanges({ changes: { before: { permissions: fullPermissions(false) } } }, names),
    ).toEqual([{ label: "Permissions", before: expect.stringMatching(/^[A-Z][^{]+$/) }]);
  });

  it("names a field it does not know in words rather than camelCase", () => {
    expect(describeAuditChanges({ changes: { after: { someNewSetting: "x" } } }, names)).toEqual([
      { label: "Some new setting", after: "x" },
    ]);
  });
});
