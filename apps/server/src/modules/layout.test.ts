import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The server's layout rule for data access: every database statement is written in a `*.store.ts`
 * file, as a named function taking the database or the caller's transaction; services, routes,
 * providers and helpers call those functions. This test reads the source and fails on a statement
 * written anywhere else, so the rule holds without anyone remembering it.
 *
 * A file breaks the rule when it
 * - calls a Drizzle statement builder (`select`, `insert`, `update`, `delete`, `execute`, `with`, ...)
 *   or the relational `query` API on a receiver named like a database (`db`, `tx`, `deps.db`,
 *   `this.db`, ...), or
 * - imports anything but types from `db/schema` (the tables) or `drizzle-orm` (operators, `sql`):
 *   these are what a statement or a SQL fragment is built from, so a file without them writes no SQL
 *   whatever its variables are called.
 *
 * `db.transaction(...)` is allowed everywhere: where a transaction begins and ends is the service's
 * decision (a change, its audit entry and its events commit together), and the statements inside it
 * are store calls taking `tx`.
 */

const SRC = fileURLToPath(new URL("..", import.meta.url));

/**
 * Files left as they are on purpose, each with its reason. Paths are relative to `apps/server/src`; a
 * path ending in `/` covers a folder. Shrink this list; do not grow it without a reason as good.
 */
const ALLOWED: Record<string, string> = {};

/** The database layer itself: the client, the schema and the migrations. */
const DATA_LAYER = "db/";

const STATEMENT_METHODS = new Set([
  "select",
  "selectDistinct",
  "selectDistinctOn",
  "insert",
  "update",
  "delete",
  "execute",
  "with",
  "$with",
  "$count",
  "refreshMaterializedView",
]);

/** What a database or transaction is called across the server: `db`, `tx`, `deps.db`, `this.db`, ... */
const DATABASE_NAME = /^(db|tx|trx|executor|database)$/i;

const SQL_SOURCES = [/(^|\/)db\/schema$/, /^drizzle-orm(\/|$)/];

/** The last name of a receiver: `db` for `deps.database.db`, `tx` for `tx`. */
function receiverName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

function isValueImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause || clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings) return false;
  if (ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.some((element) => !element.isTypeOnly);
}

/** Where a source file writes SQL outside a store, as `line: what`. */
function findDataAccess(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const from = node.moduleSpecifier.text;
      if (SQL_SOURCES.some((pattern) => pattern.test(from)) && isValueImport(node)) {
        found.push(`${at(node)}: imports values from ${from}`);
      }
    }
    if (ts.isPropertyAccessExpression(node)) {
      const receiver = receiverName(node.expression);
      const method = node.name.text;
      const isStatement = STATEMENT_METHODS.has(method) && ts.isCallExpression(node.parent);
      const isRelationalQuery = method === "query" && ts.isPropertyAccessExpression(node.parent);
      if (receiver !== undefined && DATABASE_NAME.test(receiver) && (isStatement || isRelationalQuery)) {
        found.push(`${at(node)}: ${receiver}.${method}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Where money lives: every write of these is the ledger module's (modules/ledger/). */
const MONEY_TABLES = ["ledgerEntries"];
const MONEY_COLUMNS = ["balanceMicros"];
const LEDGER_MODULE = "modules/ledger/";

/**
 * Where a source file writes money outside the ledger module, as `line: what`: a Drizzle insert,
 * update or delete of the ledger's table, an update setting an organization's balance, or raw SQL
 * that inserts into, updates or deletes from `ledger_entries` or assigns `balance_micros`.
 */
function findMoneyWrites(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const [first] = node.arguments;
      if (
        ["insert", "update", "delete"].includes(method) &&
        first &&
        ts.isIdentifier(first) &&
        MONEY_TABLES.includes(first.text)
      ) {
        found.push(`${at(node)}: ${method}(${first.text})`);
      }
      if (method === "set" && first && ts.isObjectLiteralExpression(first)) {
        for (const property of first.properties) {
          const name = property.name && ts.isIdentifier(property.name) ? property.name.text : undefined;
          if (name && MONEY_COLUMNS.includes(name)) found.push(`${at(property)}: set(${name})`);
        }
      }
    }
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText(source) === "sql") {
      const template = node.template.getText(source);
      if (/(insert\s+into|update|delete\s+from)\s+\$\{ledgerEntries\}/i.test(template)) {
        found.push(`${at(node)}: writes ledger_entries in SQL`);
      }
      if (/(insert\s+into|update|delete\s+from)\s+"?ledger_entries\b/i.test(template)) {
        found.push(`${at(node)}: writes ledger_entries in SQL`);
      }
      if (/\bbalance_micros\s*=(?!=)/i.test(template))
        found.push(`${at(node)}: assigns balance_micros in SQL`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const isAllowed = (path: string) =>
  Object.keys(ALLOWED).some((allowed) =>
    allowed.endsWith("/") ? path.startsWith(allowed) : path === allowed,
  );

describe("server layout", () => {
  it("runs every database statement from a *.store.ts file", () => {
    const violations = sourceFiles(SRC)
      .map((file) => relative(SRC, file).split(sep).join("/"))
      .filter((path) => !path.startsWith(DATA_LAYER))
      .filter((path) => !path.endsWith(".store.ts") && !path.endsWith(".test.ts") && !isAllowed(path))
      .flatMap((path) =>
        findDataAccess(path, readFileSync(join(SRC, path), "utf8")).map((where) => `${path}:${where}`),
      );
    expect(violations, "move these into the module's *.store.ts (see api-keys.store.ts)").toEqual([]);
  });

  it("moves money only in the ledger module: nothing else writes a balance or a ledger entry", () => {
    const violations = sourceFiles(SRC)
      .map((file) => relative(SRC, file).split(sep).join("/"))
      .filter((path) => !path.startsWith(LEDGER_MODULE) && !path.startsWith(DATA_LAYER))
      .filter((path) => !path.endsWith(".test.ts"))
      .flatMap((path) =>
        findMoneyWrites(path, readFileSync(join(SRC, path), "utf8")).map((where) => `${path}:${where}`),
      );
    expect(violations, "money moves in modules/ledger/ only (see call-ledger.store.ts)").toEqual([]);
  });

  it("recognises a money write however it is written", () => {
    const writes = [
      "await tx.insert(ledgerEntries).values(entry);",
      "await tx.update(organizations).set({ balanceMicros: sql`x` });",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template, as a file holds it.
      "await db.execute(sql`insert into ${ledgerEntries} (kind) values ('x')`);",
      "await db.execute(sql`update organizations set balance_micros = balance_micros - 1`);",
      "const read = await db.select({ balanceMicros: organizations.balanceMicros }).from(ledgerEntries);",
      "await db.execute(sql`select balance_micros from organizations where balance_micros >= 1`);",
    ].join("\n");
    expect(findMoneyWrites("writes.ts", writes)).toEqual([
      "1: insert(ledgerEntries)",
      "2: set(balanceMicros)",
      "3: writes ledger_entries in SQL",
      "4: assigns balance_micros in SQL",
    ]);
  });

  it("names only files that exist in its allowlist", () => {
    const missing = Object.keys(ALLOWED).filter((path) => !existsSync(join(SRC, path)));
    expect(missing).toEqual([]);
  });

  it("recognises a statement by its receiver's name and by what the file imports", () => {
    const query = [
      'import { eq, type SQL } from "drizzle-orm";',
      'import { jobs } from "../../db/schema";',
      "export async function f(deps: Deps, tx: Executor) {",
      "  await deps.db",
      "    .select()",
      "    .from(jobs);",
      "  await tx.update(jobs).set({});",
      "  await this.db.query.jobs.findFirst();",
      "  await deps.db.transaction(async (t) => store(t));",
      "  hash.update(buffer); map.delete(key);",
      "}",
    ].join("\n");
    expect(findDataAccess("query.ts", query)).toEqual([
      "1: imports values from drizzle-orm",
      "2: imports values from ../../db/schema",
      "4: db.select",
      "7: tx.update",
      "8: db.query",
    ]);
    const typesOnly = [
      'import type { SQL } from "drizzle-orm";',
      'import { type jobs } from "../../db/schema";',
      "// db.select() in a comment, and in a string: 'tx.insert(jobs)'",
    ].join("\n");
    expect(findDataAccess("types.ts", typesOnly)).toEqual([]);
  });
});
