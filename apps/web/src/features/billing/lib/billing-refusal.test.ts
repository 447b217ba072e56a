import { describe, expect, it } from "vitest";
import { billingFormErrors, describeBillingRefusal } from "./billing-refusal";

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

describe("billingFormErrors", () => {
  const complete = {
    billingName: "Acme",
    billingEmail: "billing@acme.test",
    taxId: "",
    address: "1 Main Street",
    city: "Berlin",
    state: "Berlin",
    zipCode: "10115",
    country: "Germany",
  };
  const organizationId = "11111111-1111-4111-8111-111111111111";

  it("names every missing required field, not only the first", () => {
    expect(
      billingFormErrors(
        { ...complete, billingName: " ", city: "", country: "", billingEmail: "" },
        organizationId,
      ),
    ).toEqual({
      billingName: "Billing Name is required.",
      city: "City is required.",
      country: "Country is required.",
      billingEmail: "Billing Email is required.",
    });
  });

  it("gives an address that is not one the contract's reason, and nothing for complete details", () => {
    expect(billingFormErrors({ ...complete, billingEmail: "not-an-address" }, organizationId)).toEqual({
      billingEmail: "Billing Email: Invalid email address",
    });
    expect(billingFormErrors(complete, organizationId)).toEqual({});
  });
});
