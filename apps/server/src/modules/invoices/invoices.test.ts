import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { addSandboxCard } from "../../../test/money";
import { pdfText } from "../../../test/pdf-text";
import { createTestApp, type TestApp } from "../../../test/test-app";

describe("invoice PDFs", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({
      SELLER_NAME: "Prism Imaging GmbH",
      SELLER_ADDRESS: "Torstraße 1\\n10119 Berlin\\nGermany",
      SELLER_TAX_ID: "DE123456789",
    });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function invoicePdfText(cardNumber: string): Promise<{ text: string; invoiceId: string }> {
    const owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id as string;
    const billing = await post(
      testApp,
      "/v1/users/organizations/update-billing",
      {
        organizationId,
        billingName: "Analytical Engines Ltd",
        billingEmail: "accounts@engines.example",
        taxId: "GB987654321",
        address: "12 St James's Square",
        city: "London",
        state: "Greater London",
        zipCode: "SW1Y 4JH",
        country: "GB",
      },
      { session: owner.session },
    );
    expect(billing.statusCode).toBe(200);
    await addSandboxCard(testApp, owner.session, organizationId, cardNumber);
    expect(
      (
        await post(
          testApp,
          "/v1/payments/recharge-account",
          { organizationId, amount: 42.5 },
          { session: owner.session },
        )
      ).statusCode,
    ).toBe(200);
    const listed = await post(
      testApp,
      "/v1/users/invoices/get",
      { organizationId, page: 1 },
      { session: owner.session },
    );
    const invoiceId = listed.json().invoices[0].invoiceId as string;
    const link = await post(
      testApp,
      "/v1/users/invoices/retrieve-link",
      { invoiceId },
      { session: owner.session },
    );
    const pdf = await testApp.app.inject({ method: "GET", url: link.json().url });
    expect(pdf.statusCode).toBe(200);
    return { text: await pdfText(pdf.rawPayload), invoiceId };
  }

  it("prints the seller's name, address and tax id from the configuration, and the buyer's", async () => {
    const { text, invoiceId } = await invoicePdfText("4242424242424242");
    expect(text).toContain("Prism Imaging GmbH");
    expect(text).toContain("Torstraße 1");
    expect(text).toContain("10119 Berlin");
    expect(text).toContain("Tax ID: DE123456789");
    expect(text).toContain("Analytical Engines Ltd");
    expect(text).toContain("Tax ID: GB987654321");
    expect(text).toContain(`Invoice number: ${invoiceId}`);
    expect(text).toContain("$42.50 USD");
    // The seller comes before the buyer, as on any invoice.
    expect(text.indexOf("Prism Imaging GmbH")).toBeLessThan(text.indexOf("Analytical Engines Ltd"));
  });

  it.each([
    ["4242424242424242", "Visa", "4242"],
    ["5555555555554444", "Mastercard", "4444"],
    ["378282246310005", "American Express", "0005"],
  ])("names the card brand of %s capitalised (%s)", async (number, brand, last4) => {
    const { text } = await invoicePdfText(number);
    expect(text).toContain(`Paid with ${brand} ending in ${last4}.`);
  });
});
