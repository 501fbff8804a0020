// ESLint for the whole project (run by `npm test` through `npm run lint`). Type-aware, so a promise nobody awaits,
// catches or hands on (`no-floating-promises`) fails the build; formatting is Prettier's job (`npm run format`).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "data/", ".bench/", "test/fixtures/", "adapters/matrix/crypto-stub/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      // A closure may read the variable before its one assignment (a fake server that refers to itself).
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  { files: ["**/*.js"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
  // The pages' own browser scripts (served as they are, no build step): the browser's globals and uPlot's.
  { files: ["adapters/web/static/*.js"], languageOptions: { globals: { document: "readonly", window: "readonly", uPlot: "readonly" } } },
);
