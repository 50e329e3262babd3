// Lint rules of the project: the recommended JavaScript and TypeScript rules, React hooks, and
// the rules that keep the house in order: no unused code, no floating promise (type-aware, over
// the TypeScript of app/, db/, scripts/ and tests/), no server code in the UI's rooms, no import from
// a higher floor of app/, no test that counts a crash as an answer. Unused exports and files are knip's (npm run lint).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * A test never counts a crash as an answer: a catch clause that hands its error on as a value
 * (`res = e`, `return e`) must also rethrow it (`if (e instanceof Response) return e; throw e;`),
 * so a loader or action that throws an Error fails the test instead of passing as "answered".
 */
const noCrashAsAnswer = {
  meta: {
    type: "problem",
    messages: { crash: "A caught '{{name}}' is used as an answer without `throw {{name}}` for anything else." },
  },
  create(context) {
    return {
      CatchClause(node) {
        if (node.param?.type !== "Identifier") return;
        const name = node.param.name;
        let used = null;
        let rethrown = false;
        const visit = (n, parent) => {
          if (!n || typeof n.type !== "string") return;
          if (n.type === "ThrowStatement" && n.argument?.type === "Identifier" && n.argument.name === name)
            rethrown = true;
          if (
            n.type === "Identifier" &&
            n.name === name &&
            parent &&
            ((parent.type === "AssignmentExpression" && parent.right === n) ||
              (parent.type === "ReturnStatement" && parent.argument === n) ||
              (parent.type === "VariableDeclarator" && parent.init === n))
          )
            used ??= n;
          if (/Function/.test(n.type) && n !== node.body) return;
          for (const key of Object.keys(n)) {
            if (key === "parent") continue;
            const child = n[key];
            if (Array.isArray(child)) child.forEach((c) => visit(c, n));
            else if (child && typeof child.type === "string") visit(child, n);
          }
        };
        visit(node.body, node);
        if (used && !rethrown) context.report({ node: used, messageId: "crash", data: { name } });
      },
    };
  },
};

/** A file that must not exist where it is: server code under app/components (UI only). */
const noServerFile = {
  meta: {
    type: "problem",
    messages: {
      server: "app/components holds UI only: server code goes to app/models (data) or app/http (the request edge).",
    },
  },
  create(context) {
    return { Program: (node) => context.report({ node, messageId: "server" }) };
  },
};

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "build-*/**",
      "node_modules/**",
      "tests/.tmp/**",
      "test-results/**",
      "playwright-report/**",
      "bench/.data/**",
      "data/**",
      "drizzle/**",
      "reports/**",
      ".stryker-tmp*/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // A promise is awaited, returned or handed to `void` on purpose: one left floating loses its error.
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { "@typescript-eslint/no-floating-promises": "error" },
  },
  {
    files: ["tests/**/*.ts"],
    plugins: { tests: { rules: { "no-crash-as-answer": noCrashAsAnswer } } },
    rules: { "tests/no-crash-as-answer": "error" },
  },
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-console": ["error", { allow: ["error", "warn", "info", "log"] }],
    },
  },
  {
    // The public pages' scripts (inlined in every page): browser code only. Values from the
    // shared schemas are inlined at build time (scripts/public-scripts-plugin.ts); nothing else
    // of the server, no framework and no library comes in.
    files: ["app/browser/**/*.ts"],
    ignores: ["app/browser/**/*.test.ts"],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "\\.server(\\.|$)", message: "Server code never goes to the browser." },
            {
              // scripts/fair-draws-core.mjs and -bls.mjs: the fair-draw checker the command line shares (the
              // BLS step only in the script loaded on demand).
              regex: "^(?!~/schemas/|\\./|~/browser/|\\.\\./\\.\\./scripts/fair-draws-(core|bls)\\.mjs$)",
              message: "Public scripts import only ./ modules, ~/schemas/ values and the fair-draw checker.",
            },
          ],
        },
      ],
    },
  },
  {
    // app/components holds UI only: no .server file, and nothing of the server imported but types.
    files: ["app/components/**/*.server.{ts,tsx}"],
    plugins: { house: { rules: { "no-server-file": noServerFile } } },
    rules: { "house/no-server-file": "error" },
  },
  {
    files: ["app/components/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(\\.server(\\.|$))|^@db/",
              allowTypeImports: true,
              message: "app/components holds UI only: read data in a route's loader and pass it in.",
            },
          ],
        },
      ],
    },
  },
  // The floors of app/, top to bottom: the pages (app/routes, with app/components and app/browser beside
  // them), app/http (the request edge), app/models, app/schemas, app/utils, then db. A module imports from
  // its own floor and those below it, never from one above (docs/decisions/0007-house-rules.md;
  // tests/integration/layers.test.ts walks the whole import graph, circles included).
  ...Object.entries({
    "app/http": ["routes", "components", "browser"],
    "app/models": ["http", "routes", "components", "browser"],
    "app/schemas": ["models", "http", "routes", "components", "browser"],
    "app/utils": ["schemas", "models", "http", "routes", "components", "browser"],
  }).map(([floor, above]) => ({
    files: [`${floor}/**/*.{ts,tsx}`],
    ignores: [`${floor}/**/*.test.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^(~/|(\\.\\./)+)(${above.join("|")})/`,
              message: `${floor} stands below app/${above.join(", app/")}: it never imports from them.`,
            },
          ],
        },
      ],
    },
  })),
  {
    // End-to-end data is made through the models (tests/e2e/data.ts); the server's database is opened
    // read-only, once (helpers.ts). The deployment tests copy it for a server of their own.
    files: ["tests/e2e/**/*.ts"],
    ignores: ["tests/e2e/helpers.ts", "tests/e2e/deploy-nginx.spec.ts", "tests/e2e/busy-nginx.spec.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "better-sqlite3", message: "Set data up through tests/e2e/data.ts; read it with readDb." }] },
      ],
    },
  },
);
