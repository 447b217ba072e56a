import { describe, expect, it } from "vitest";
import { passwordSchema } from "./fields";
import {
  PASSWORD_STRONG,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
  PASSWORD_TOO_WEAK,
  PASSWORDS_DO_NOT_MATCH,
} from "./messages";
import { checkPassword, PASSWORD_SPECIAL_CHARACTERS } from "./password";

describe("checkPassword", () => {
  it("clears the message while the password is empty", () => {
    expect(checkPassword("")).toEqual({ ok: false, message: "" });
    expect(checkPassword("", "x")).toEqual({ ok: false, message: "" });
  });

  it("asks for 8 characters first", () => {
    expect(checkPassword("Ab1!").message).toBe(PASSWORD_TOO_SHORT);
    expect(checkPassword("Ab1!xyz").message).toBe(PASSWORD_TOO_SHORT);
  });

  it("needs an uppercase, a lowercase, a digit and a special character", () => {
    expect(checkPassword("abcdefg1!").message).toBe(PASSWORD_TOO_WEAK);
    expect(checkPassword("ABCDEFG1!").message).toBe(PASSWORD_TOO_WEAK);
    expect(checkPassword("Abcdefgh!").message).toBe(PASSWORD_TOO_WEAK);
    expect(checkPassword("Abcdefgh1").message).toBe(PASSWORD_TOO_WEAK);
    expect(checkPassword("Abcdefg1 ").message).toBe(PASSWORD_TOO_WEAK);
    expect(checkPassword("Abcdefg1=").message).toBe(PASSWORD_TOO_WEAK);
  });

  it("accepts every character of the spec's special set", () => {
    expect(PASSWORD_SPECIAL_CHARACTERS).toBe(String.raw`!@#$%^&*()_+{}[]:;<>,.?~\/-`);
    for (const special of PASSWORD_SPECIAL_CHARACTERS) {
      expect(checkPassword(`Abcdefg1${special}`)).toEqual({ ok: true, message: PASSWORD_STRONG });
    }
  });

  it("compares the confirmation only when given", () => {
    expect(checkPassword("Abcdefg1!")).toEqual({ ok: true, message: PASSWORD_STRONG });
    expect(checkPassword("Abcdefg1!", "Abcdefg1!")).toEqual({ ok: true, message: PASSWORD_STRONG });
    expect(checkPassword("Abcdefg1!", "Abcdefg1?")).toEqual({ ok: false, message: PASSWORDS_DO_NOT_MATCH });
    expect(checkPassword("Abcdefg1!", "")).toEqual({ ok: false, message: PASSWORDS_DO_NOT_MATCH });
  });

  it("reports the rules before the confirmation", () => {
    expect(checkPassword("short", "other").message).toBe(PASSWORD_TOO_SHORT);
  });

  it("bounds the length", () => {
    expect(checkPassword(`Ab1!${"x".repeat(300)}`).message).toBe(PASSWORD_TOO_LONG);
  });
});

describe("passwordSchema", () => {
  it("accepts a strong password untouched", () => {
    expect(passwordSchema.parse(" Abcdefg1! ")).toBe(" Abcdefg1! ");
  });

  it("rejects weak passwords with the spec's message", () => {
    const short = passwordSchema.safeParse("Ab1!");
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe(PASSWORD_TOO_SHORT);
    const weak = passwordSchema.safeParse("abcdefgh1!");
    expect(weak.error?.issues[0]?.message).toBe(PASSWORD_TOO_WEAK);
  });
});
