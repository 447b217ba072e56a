import { describe, expect, it } from "vitest";
import { PROMPT_MAX_LENGTH, RANDOM_PROMPT_COUNT } from "./limits";
import { RANDOM_PROMPTS, randomPrompt } from "./random-prompts";

describe("RANDOM_PROMPTS", () => {
  it(`holds exactly ${RANDOM_PROMPT_COUNT} distinct, non-empty prompts within the prompt limit`, () => {
    expect(RANDOM_PROMPTS).toHaveLength(RANDOM_PROMPT_COUNT);
    expect(new Set(RANDOM_PROMPTS.map((prompt) => prompt.trim().toLowerCase())).size).toBe(
      RANDOM_PROMPT_COUNT,
    );
    for (const prompt of RANDOM_PROMPTS) {
      expect(prompt.trim()).toBe(prompt);
      expect(prompt.length).toBeGreaterThan(0);
      expect(prompt.length).toBeLessThanOrEqual(PROMPT_MAX_LENGTH);
    }
  });
});

describe("randomPrompt", () => {
  it("picks from the list by the random number", () => {
    expect(randomPrompt(undefined, () => 0)).toBe(RANDOM_PROMPTS[0]);
    expect(randomPrompt(undefined, () => 0.999_999)).toBe(RANDOM_PROMPTS[RANDOM_PROMPT_COUNT - 1]);
  });

  it("never returns the current prompt, so the button always changes the text", () => {
    const current = RANDOM_PROMPTS[0];
    for (const value of [0, 0.25, 0.5, 0.75, 0.999_999]) {
      const next = randomPrompt(current, () => value);
      expect(next).not.toBe(current);
      expect(RANDOM_PROMPTS).toContain(next);
    }
  });
});
