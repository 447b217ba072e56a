import { describe, expect, it } from "vitest";
import { describeBillingRefusal } from "./billing-refusal";

describe("describeBillingRefusal", () => {
  it("names the missing field by its label", () => {
    expect(describeBillingRefusal("city: Please fill all the required fields")).toEqual({
      field: "city",
      message: "City is required.",
    });
    expect(describeBillingRefusal("zipCode: Please fill all the required fields").message).toBe(
      "ZIP/Postal Code is required.",
    );
  });

  it("keeps the server's reason for other refusals", () => {
    expect(describeBillingRefusal("billingEmail: Invalid email address")).toEqual({
      field: "billingEmail",
      message: "Billing Email: Invalid email address",
    });
  });

  it("passes an unrelated message through", () => {
    expect(describeBillingRefusal("The request is not valid.")).toEqual({
      field: null,
      message: "The request is not valid.",
    });
  });
});
