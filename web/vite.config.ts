/// <reference types="vitest/config" />
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath, URL } from "node:url";
import { defineConfig } from "vite";

// In development the Vite server forwards the API (REST and gRPC-Web) to the Rust server on :8080,
// so the browser talks to one origin as it does in production.
const api = process.env.SOCIO_API ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    proxy: {
      "/api": api,
      "^/(socio\\.v1\\.|grpc\\.)": api,
    },
  },
  build: {
    target: "es2022",
    sourcemap: false,
    // Read by scripts/bundle-budget.mjs to find what the landing page loads.
    manifest: true,
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/testing/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    testTimeout: 15_000,
  },
});
