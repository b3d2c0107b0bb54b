/// <reference types="vitest/config" />
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath, URL } from "node:url";
import { defineConfig, type Plugin } from "vite";

// In development the Vite server forwards the API (REST and gRPC-Web) to the Rust server on :8080,
// so the browser talks to one origin as it does in production.
const api = process.env.SOCIO_API ?? "http://127.0.0.1:8080";

// Two pages: index.html is the landing page alone (what `/` gets), app.html the app with its router
// (what every other address gets). The Rust server picks between them; so does this, in development.
function appPageForEveryOtherAddress(): Plugin {
  return {
    name: "socio-app-page",
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const path = request.url?.split("?")[0] ?? "/";
        const isPage = request.headers.accept?.includes("text/html") && !path.includes(".") && path !== "/";
        if (isPage) request.url = "/app.html";
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), appPageForEveryOtherAddress()],
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
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL("./index.html", import.meta.url)),
        app: fileURLToPath(new URL("./app.html", import.meta.url)),
      },
    },
  },
  test: {
    environment: "jsdom",
    setupFiles: ["./src/testing/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    css: false,
    testTimeout: 15_000,
  },
});
