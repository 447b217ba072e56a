import { describe, expect, it } from "vitest";
import { isEmailAddress } from "./email";
import { emailSchema } from "./fields";
import { EMAIL_MAX_LENGTH } from "./limits";

const SAMPLES = [
  "ada@example.com",
  "  Ada.Lovelace+prism@Example.CO.uk ",
  "first_last-1@sub.example.org",
  "",
  "   ",
  "ada",
  "ada@",
  "@example.com",
  "ada@example",
  "ada@@example.com",
  "ada example@example.com",
  "ada@exa mple.com",
  "ada..lovelace@example.com",
  ".ada@example.com",
  "ada@-example.com",
  `${"a".repeat(EMAIL_MAX_LENGTH - "@example.com".length)}@example.com`,
  `${"a".repeat(EMAIL_MAX_LENGTH - "@example.com".length + 1)}@example.com`,
];

describe("isEmailAddress", () => {
  it.each(SAMPLES)("agrees with emailSchema on %j", (sample) => {
    expect(isEmailAddress(sample)).toBe(emailSchema.safeParse(sample).success);
  });

  it("accepts a usual address and refuses a malformed one", () => {
    expect(isEmailAddress(" Ada@Example.com ")).toBe(true);
    expect(isEmailAddress("ada@example")).toBe(false);
  });
});
