import { describe, expect, it } from "vitest";
import { paginationItems } from "./pagination";

describe("paginationItems", () => {
  it("shows nothing without pages", () => {
    expect(paginationItems(1, 0)).toEqual([]);
  });

  it("lists every page up to 9 pages", () => {
    expect(paginationItems(1, 1)).toEqual([1]);
    expect(paginationItems(5, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("beyond 9 pages shows the first, the last and two either side of the current, with ellipses", () => {
    expect(paginationItems(10, 20)).toEqual([1, "ellipsis-start", 8, 9, 10, 11, 12, "ellipsis-end", 20]);
  });

  it("leaves out the leading ellipsis near the start and the trailing one near the end", () => {
    expect(paginationItems(1, 10)).toEqual([1, 2, 3, "ellipsis-end", 10]);
    expect(paginationItems(3, 10)).toEqual([1, 2, 3, 4, 5, "ellipsis-end", 10]);
    expect(paginationItems(10, 10)).toEqual([1, "ellipsis-start", 8, 9, 10]);
    expect(paginationItems(8, 10)).toEqual([1, "ellipsis-start", 6, 7, 8, 9, 10]);
  });

  it("puts an ellipsis wherever a page is left out, even a single one", () => {
    expect(paginationItems(5, 12)).toEqual([1, "ellipsis-start", 3, 4, 5, 6, 7, "ellipsis-end", 12]);
    expect(paginationItems(4, 12)).toEqual([1, 2, 3, 4, 5, 6, "ellipsis-end", 12]);
  });

  it("never exceeds nine slots and clamps an out-of-range current page", () => {
    for (let current = 1; current <= 50; current += 1) {
      expect(paginationItems(current, 50).length).toBeLessThanOrEqual(9);
    }
    expect(paginationItems(99, 12)).toEqual(paginationItems(12, 12));
    expect(paginationItems(0, 12)).toEqual(paginationItems(1, 12));
  });
});
