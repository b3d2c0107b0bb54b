// Lint rules: TypeScript's recommended set, the rules of hooks, and the bulletproof-react
// boundaries — shared code (components, lib) imports no feature or app code, features do not import
// each other or the app, a feature's components reach the server only through its api/ folder, and
// no file imports itself through a circle of others.
import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const features = ["auth", "billing", "business-plan", "dashboard", "admin", "landing", "legal", "whatsapp-dev", "chat"];

export default tseslint.config(
  { ignores: ["dist", "src/gen", "node_modules", "test-results", "e2e/screenshots"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ["scripts/**/*.mjs"], languageOptions: { globals: globals.node } },
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks, import: importPlugin },
    settings: {
      "import/resolver": { typescript: { project: "./tsconfig.json" }, node: true },
      "import/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      // No circle between files, however long: the import graph is layered like the server's.
      "import/no-cycle": ["error", { maxDepth: Infinity, ignoreExternal: true }],
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: "./src/features",
              except: [`./${feature}`],
            })),
            { target: "./src/features", from: "./src/app" },
            { target: ["./src/components", "./src/lib", "./src/locales"], from: ["./src/features", "./src/app"] },
          ],
        },
      ],
    },
  },
  {
    files: ["src/features/*/components/**/*.tsx", "src/components/**/*.tsx"],
    ignores: ["**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "@connectrpc/connect-query", message: "A feature's calls live in its api/ folder." }] },
      ],
    },
  },
);
