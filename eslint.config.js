// Lint rules of the project: the recommended JavaScript and TypeScript rules, React hooks, and
// the rules that keep the house in order (no unused code, no floating promises in server code).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
              // scripts/fair-draws-core.mjs: the fair-draw checker the command line shares (dependency-free).
              regex: "^(?!~/schemas/|\\./|~/browser/|\\.\\./\\.\\./scripts/fair-draws-core\\.mjs$)",
              message: "Public scripts import only ./ modules, ~/schemas/ values and the fair-draw checker.",
            },
          ],
        },
      ],
    },
  },
);
