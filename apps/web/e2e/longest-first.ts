import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Starts the accessibility walks first. Without durations from an earlier run (a fresh clone in CI) Vitest
 * starts the largest files first, and the two walks' files are a line each (the walk lives in
 * accessibility.ts) while being the longest journeys (about two minutes each): started last, they ran
 * alone at the end of the pass.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isWalk = (file: TestSpecification) => /accessibility-[a-z]+\.e2e\.test\.ts$/.test(file.moduleId);
    return [...sorted.filter(isWalk), ...sorted.filter((file) => !isWalk(file))];
  }
}
