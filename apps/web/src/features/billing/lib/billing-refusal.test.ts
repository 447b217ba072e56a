import { describe, expect, it } from "vitest";
import { describeBillingRefusal } from "./billing-refusal";

describe("describeBillingRefusal", () => {
  it("names the missing field by its label", () => {
    expect(
      describeBillingRefusal({ field: "city", message: "city: Please fill all the required fields" }),
    ).toEqual({
      field: "city",
      message: "City is required.",
    });
    expect(
      describeBillingRefusal({ field: "zipCode", message: "zipCode: Please fill all the required fields" })
        .message,
    ).toBe("ZIP/Postal Code is required.");
  });

  it("keeps the server's reason for other refusals", () => {
    expect(
      describeBillingRefusal({ field: "billingEmail", message: "billingEmail: Invalid email address" }),
    ).toEqual({
      field: "billingEmail",
      message: "Billing Email: Invalid email address",
    });
  });

  it("passes a message that names no billing field through, whatever its words", () => {
    expect(describeBillingRefusal({ message: "city: looks like a field but is not named" }).field).toBeNull();
    expect(
      describeBillingRefusal({ field: "organizationId", message: "organizationId: Invalid" }).field,
    ).toBeNull();
    expect(describeBillingRefusal({ message: "The request is not valid." })).toEqual({
      field: null,
      message: "The request is not valid.",
    });
  });
});
